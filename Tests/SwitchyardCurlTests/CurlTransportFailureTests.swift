import HTTPTypes
import Switchyard
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct CurlTransportFailureTests {
    @Test func aTruncatedStreamedBodyEndsInAnErrorNotAShortBody() async throws {
        try await withCurlClient { client, server in
            let response = try await client.stream(try Request(url: server.url("/malformed/truncated-length")))
            var received = 0
            let error = await #expect(throws: SwitchyardError.self) {
                for try await chunk in response.body { received += chunk.count }
            }
            #expect(error?.kind == .protocolViolation)
            #expect(received <= 50)
        }
    }

    @Test func aResponseOverTheLimitIsRefusedWhileStreaming() async throws {
        try await withCurlClient { client, server in
            for framing in ["content-length", "chunked", "close"] {
                var request = try Request(url: server.url("/bytes/2000000?framing=\(framing)"))
                request.options.maxResponseBytes = 100_000
                let error = await failure(of: client, request)
                #expect(error?.kind == .responseTooLarge, "\(framing)")
            }
        }
    }
}
