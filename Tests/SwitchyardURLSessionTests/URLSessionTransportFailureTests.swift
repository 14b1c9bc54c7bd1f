import HTTPTypes
import Switchyard
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardURLSession
import Testing

@Suite(.timeLimit(.minutes(2))) struct URLSessionTransportFailureTests {
    @Test func aTruncatedStreamedBodyEndsInAnErrorNotAShortBody() async throws {
        try await withURLSessionClient { client, server in
            let response = try await client.stream(try Request(url: server.url("/malformed/truncated-length")))
            var received = 0
            let error = await #expect(throws: SwitchyardError.self) {
                for try await chunk in response.body { received += chunk.count }
            }
            #expect(error?.kind == .protocolViolation)
            #expect(received <= 50)
        }
    }

    /// libcurl under corelibs reads ahead at network speed, so a 2 MB body may already be complete on
    /// the wire when the limit is hit: only the error is asserted here.
    @Test func aResponseOverTheLimitIsRefusedWhileStreaming() async throws {
        try await withURLSessionClient { client, server in
            for framing in ["content-length", "chunked", "close"] {
                var request = try Request(url: server.url("/bytes/2000000?framing=\(framing)"))
                request.options.maxResponseBytes = 100_000
                let error = await failure(of: client, request)
                #expect(error?.kind == .responseTooLarge, "\(framing)")
            }
        }
    }

    @Test func aResponseOverTheLimitClosesAnUnfinishedTransfer() async throws {
        try await withURLSessionClient { client, server in
            var request = try Request(url: server.url("/stall-body?tag=limit&bytes=4096"))
            request.options.maxResponseBytes = 100_000
            let error = await failure(of: client, request)
            #expect(error?.kind == .responseTooLarge)
            #expect(await server.waitForDisconnect(tag: "limit", timeout: .seconds(60)))
        }
    }

    @Test func aDeclaredLengthOverTheLimitFailsBeforeReading() async throws {
        try await withURLSessionClient { client, server in
            var request = try Request(url: server.url("/bytes/2000000"))
            request.options.maxResponseBytes = 1_000
            let transport = URLSessionTransport()
            let error = await #expect(throws: SwitchyardError.self) {
                _ = try await transport.send(request, context: ExchangeContext(options: request.options))
            }
            #expect(error?.kind == .responseTooLarge)
        }
    }
}
