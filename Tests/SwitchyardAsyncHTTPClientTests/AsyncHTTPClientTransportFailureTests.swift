import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct AsyncHTTPClientTransportFailureTests {
    @Test func anUnresolvableHostIsConnectionFailed() async throws {
        let transport = AsyncHTTPClientTransport()
        let error = await failure(of: Client(transport: transport, interceptors: []), try Request(url: "http://\(unresolvableHost)/"))
        print("AHC unresolvable host: \(String(describing: error))")
        #expect(error?.kind == .connectionFailed)
        #expect(error?.message.contains("resolve") == true)
        try await transport.shutdown()
    }

    @Test func aDeadlineAlreadyPassedSendsNothing() async throws {
        try await withAHCClient { client, server in
            var request = try Request(url: server.url("/echo"))
            request.options.deadline = .now - .seconds(1)
            let error = await failure(of: client, request)
            #expect(error?.kind == .timeout)
            #expect(server.requestCount(path: "/echo") == 0)
        }
    }

    @Test func anInvalidSchemeIsAnInvalidRequest() async throws {
        let transport = AsyncHTTPClientTransport()
        let head = HTTPRequest(method: .get, scheme: "ftp", authority: "example.com", path: "/")
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await transport.send(Request(head), context: ExchangeContext())
        }
        #expect(error?.kind == .invalidRequest)
        try await transport.shutdown()
    }
}
