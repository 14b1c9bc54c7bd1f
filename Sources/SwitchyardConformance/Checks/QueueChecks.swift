import HTTPTypes
import Switchyard
import SwitchyardTestServer

extension TransportConformance {
    /// One connection per host, so a second request waits in the transport's own queue behind a
    /// request the server never answers.
    static let singleConnection = ConformanceTransportSettings(maxConnectionsPerHost: 1)

    static let queueChecks: [ConformanceCheck] = [
        ConformanceCheck(
            "deadline-while-queued", .concurrency,
            "A deadline passing while the request waits for a connection fails with timeout and sends nothing",
            settings: singleConnection
        ) { h in
            let blocker = try await startBlocker(h)
            defer { blocker.cancel() }
            let queued = try h.request(.get, "/small", options: RequestOptions(timeout: .milliseconds(200)))
            try await h.expectFailure(.timeout, "a queued request with a 200 ms timeout") { _ = try await h.client.send(queued) }
            try expectEqual(h.server.requestCount(path: "/small"), 0, "requests the server received for the queued one")
        },
        ConformanceCheck(
            "cancel-while-queued", .concurrency,
            "Cancelling a request that waits for a connection fails with cancelled and never sends it",
            settings: singleConnection
        ) { h in
            let probe = SuspensionProbe()
            let probed = Client(transport: ProbedTransport(h.transport, probe: probe), interceptors: [])
            let blocker = try await startBlocker(h)
            defer { blocker.cancel() }
            let request = try h.request(.get, "/echo")
            let queued = probe.task { _ = try await probed.send(request) }
            // Queued, proven rather than slept for: the task entered the transport and waits. A
            // request to another server afterwards comes back through the same transport (for an
            // event loop that takes commands in order, the queued transfer was handed over first).
            guard await probe.suspendedAfterMark() else {
                queued.cancel()
                throw ConformanceFailure("the request never waited inside the transport")
            }
            try await withSecondServer { other in _ = try await h.client.send(try Request(url: other.url("/small"))) }
            try expectEqual(h.server.requestCount(path: "/echo"), 0, "requests the server received while one was queued")
            queued.cancel()
            try await h.expectFailure(.cancelled, "a cancelled queued request") { try await queued.value }
            blocker.cancel()
            _ = await blocker.result
            // The freed connection must not carry the cancelled request afterwards.
            _ = try await h.client.send(try h.request(.get, "/small"))
            try expectEqual(h.server.requestCount(path: "/echo"), 0, "requests the server received for the cancelled one")
        },
        ConformanceCheck(
            "sixty-four-in-flight", .concurrency,
            "With default settings, 64 requests to one host are on the wire together; cancelled, each fails and closes"
        ) { h in
            let client = h.client
            let requests = try (0..<64).map { try h.request(.get, "/stall?tag=inflight-\($0)") }
            let tasks = requests.map { request in Task { _ = try await client.send(request) } }
            defer { for task in tasks { task.cancel() } }
            // A transport that serialises behind a few connections leaves the rest queued: the wait fails.
            try await waitUntil("all 64 requests reach the server (\(h.server.requestCount(path: "/stall")) did)") {
                h.server.requestCount(path: "/stall") == 64
            }
            for task in tasks { task.cancel() }
            for task in tasks { try await h.expectFailure(.cancelled, "a cancelled request in flight") { try await task.value } }
            for index in 0..<64 { try await h.expectDisconnect(tag: "inflight-\(index)", after: "cancelling request \(index)") }
        },
        ConformanceCheck(
            "keep-alive-reuses-connection", .concurrency, "Twenty requests in a row travel over one connection"
        ) { h in
            for _ in 0..<20 { _ = try await h.client.send(try h.request(.get, "/small")) }
            try expectEqual(h.server.requestCount(path: "/small"), 20, "requests received")
            try expectEqual(h.server.acceptedConnections, 1, "connections the server accepted")
        }
    ]

    /// Sends a request the server holds without answering, and returns once the server has it: the
    /// one connection a ``singleConnection`` transport may open is taken.
    private static func startBlocker(_ h: ConformanceHarness) async throws -> Task<Void, any Error> {
        let request = try h.request(.get, "/stall?tag=blocker")
        let client = h.client
        let blocker = Task { _ = try await client.send(request) }
        do {
            try await waitUntil("the server receives the blocking request") { h.server.requestCount(path: "/stall") == 1 }
        } catch {
            blocker.cancel()
            throw error
        }
        return blocker
    }
}

/// Runs `body` with a second loopback server, shut down afterwards.
func withSecondServer<T>(_ body: (LoopbackServer) async throws -> T) async throws -> T {
    let server = try await LoopbackServer.start()
    do {
        let result = try await body(server)
        try? await server.shutdown()
        return result
    } catch {
        try? await server.shutdown()
        throw error
    }
}
