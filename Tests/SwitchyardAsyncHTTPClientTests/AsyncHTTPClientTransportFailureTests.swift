import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct AsyncHTTPClientTransportFailureTests {
    @Test func anUnresolvableHostIsConnectionFailed() async throws {
        let transport = AsyncHTTPClientTransport()
        let error = await failure(of: Client(transport: transport, interceptors: []), try Request(url: "http://does-not-exist.invalid/"))
        print("AHC unresolvable host: \(String(describing: error))")
        #expect(error?.kind == .connectionFailed)
        #expect(error?.message.contains("resolve") == true)
        try await transport.shutdown()
    }

    @Test(arguments: ["/malformed/truncated-length", "/malformed/truncated-chunked"])
    func aTruncatedStreamedBodyEndsInAnErrorNotAShortBody(path: String) async throws {
        try await withAHCClient { client, server in
            let response = try await client.stream(try Request(url: server.url(path)))
            var received = 0
            let error = await #expect(throws: SwitchyardError.self) {
                for try await chunk in response.body { received += chunk.count }
            }
            #expect(error?.kind == .protocolViolation)
            #expect(received <= 50)
        }
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

    @Test func aResponseOverTheLimitIsRefusedWhileStreaming() async throws {
        try await withAHCClient { client, server in
            for framing in ["content-length", "chunked", "close"] {
                var request = try Request(url: server.url("/bytes/2000000?framing=\(framing)&tag=limit-\(framing)"))
                request.options.maxResponseBytes = 100_000
                let error = await failure(of: client, request)
                #expect(error?.kind == .responseTooLarge, "\(framing): \(String(describing: error))")
                #expect(await server.waitForDisconnect(tag: "limit-\(framing)", timeout: .seconds(60)), "\(framing)")
            }
        }
    }

    @Test func aDeclaredLengthOverTheLimitFailsBeforeReading() async throws {
        try await withAHCClient { client, server in
            var request = try Request(url: server.url("/bytes/2000000"))
            request.options.maxResponseBytes = 100_000
            let error = await #expect(throws: SwitchyardError.self) { _ = try await client.stream(request) }
            #expect(error?.kind == .responseTooLarge)
        }
    }

    @Test func aStreamedLimitStopsReadingAtTheLimit() async throws {
        try await withAHCClient { client, server in
            var request = try Request(url: server.url("/bytes/5000000?framing=chunked"))
            request.options.maxResponseBytes = 200_000
            let response = try await client.stream(request)
            var received = 0
            let error = await #expect(throws: SwitchyardError.self) {
                for try await chunk in response.body { received += chunk.count }
            }
            #expect(error?.kind == .responseTooLarge)
            #expect(received <= 200_000)
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
