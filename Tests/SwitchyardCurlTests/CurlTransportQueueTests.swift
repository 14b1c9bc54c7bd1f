import HTTPTypes
import Switchyard
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct CurlTransportQueueTests {
    /// One connection per host: the second and third requests wait in libcurl's queue behind a stalled one.
    private static let singleConnection = CurlTransport.Configuration(maxConnectionsPerHost: 1)

    @Test func aDeadlineExpiresWhileQueued() async throws {
        try await withCurlClient(configuration: Self.singleConnection) { client, server in
            let blocker = Task { try await client.send(try Request(url: server.url("/stall?tag=blocker"))) }
            while server.requestCount(path: "/stall") == 0 { try await Task.sleep(for: .milliseconds(5)) }
            var queued = try Request(url: server.url("/small"))
            queued.options.timeout = .milliseconds(200)
            let error = await failure(of: client, queued)
            #expect(error?.kind == .timeout)
            #expect(server.requestCount(path: "/small") == 0)
            blocker.cancel()
            _ = await blocker.result
        }
    }

    @Test func cancellingAQueuedRequestSendsNothing() async throws {
        try await withCurlClient(configuration: Self.singleConnection) { client, server in
            let blocker = Task { try await client.send(try Request(url: server.url("/stall?tag=blocker"))) }
            while server.requestCount(path: "/stall") == 0 { try await Task.sleep(for: .milliseconds(5)) }
            let queued = Task { try await client.send(try Request(url: server.url("/echo"))) }
            try await Task.sleep(for: .milliseconds(50))
            queued.cancel()
            guard case .failure(let error as SwitchyardError) = await queued.result else {
                Issue.record("expected the queued request to be cancelled")
                return
            }
            #expect(error.kind == .cancelled)
            blocker.cancel()
            _ = await blocker.result
            // The freed connection must not carry the cancelled request afterwards.
            _ = try await client.send(try Request(url: server.url("/small")))
            #expect(server.requestCount(path: "/echo") == 0)
        }
    }
}
