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
        let probe = SuspensionProbe()
        let transport = ProbedTransport(CurlTransport(configuration: Self.singleConnection), probe: probe)
        try await withLoopbackClient(transport: transport, shutdown: { try await $0.shutdown() }) { client, server in
            let blocker = Task { try await client.send(try Request(url: server.url("/stall?tag=blocker"))) }
            try #require(await eventually { server.requestCount(path: "/stall") == 1 })
            let queued = probe.task { try await client.send(try Request(url: server.url("/echo"))) }
            // Queued, proven rather than slept for: curl's `send` suspends only once it has handed the
            // transfer to the event loop's inbox, and a request to another host sent after that has come
            // back through the same loop, which takes commands in order: libcurl holds the transfer,
            // waiting for the one connection the blocker occupies.
            try #require(await probe.suspendedAfterMark(), "the queued request never waited in the transport")
            try await withLoopbackServer { other in _ = try await client.send(try Request(url: other.url("/small"))) }
            #expect(server.requestCount(path: "/echo") == 0)
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
