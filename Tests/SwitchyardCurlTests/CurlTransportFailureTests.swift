import HTTPTypes
import Switchyard
import SwitchyardCurl
import SwitchyardTestServer
import Testing

@Suite(.timeLimit(.minutes(2))) struct CurlTransportFailureTests {
    @Test(arguments: [
        "/malformed/status-line", "/malformed/garbage", "/malformed/header-line",
        "/malformed/truncated-length", "/malformed/truncated-chunked", "/malformed/bad-chunk",
        "/gzip/broken",
    ])
    func brokenResponsesAreProtocolViolations(path: String) async throws {
        try await withCurlClient { client, server in
            let error = await failure(of: client, try Request(url: server.url(path)))
            #expect(error?.kind == .protocolViolation, "\(path): \(String(describing: error))")
        }
    }

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

    @Test func aDeadlineExpiresWhileTheServerStalls() async throws {
        try await withCurlClient { client, server in
            var request = try Request(url: server.url("/stall?tag=deadline"))
            request.options.timeout = .milliseconds(200)
            let error = await failure(of: client, request)
            #expect(error?.kind == .timeout)
            #expect(await server.waitForDisconnect(tag: "deadline", timeout: .seconds(5)))
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

    @Test func aServerThatClosesWithoutAnswering() async throws {
        try await withCurlClient { client, server in
            let error = await failure(of: client, try Request(url: server.url("/malformed/empty")))
            #expect(error?.kind == .connectionFailed)
        }
    }
}
