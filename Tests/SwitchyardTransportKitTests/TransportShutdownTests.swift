import Switchyard
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// `shutdown()` on every transport: requests in flight end (none hangs), the transport's connections
/// close (the server sees it; curl and AsyncHTTPClient at once, URLSession once the transport is
/// released), a second call returns, and later requests fail with a `transport` error instead of
/// hanging or crashing.
///
/// Declared for URLSession: `invalidateAndCancel()` cancels the tasks (the connection of the one in
/// flight closes), but FoundationNetworking's libcurl keeps its idle connections until the session
/// is released, so one is left open until the transport is.
@Suite(.timeLimit(.minutes(2))) struct TransportShutdownTests {
    @Test(arguments: TransportKind.allCases)
    func shutdownEndsRequestsInFlightClosesConnectionsAndRefusesLaterRequests(_ kind: TransportKind) async throws {
        let server = try await LoopbackServer.start()
        var transport: (any Transport)? = kind.make()
        let client = Client(transport: try #require(transport), interceptors: [])
        // Two requests held at once open two connections: one for the request in flight, one idle.
        try await openTwoConnections(client, server)
        #expect(server.openConnections == 2)
        let inFlight = Task { await failure(of: client, try Request(url: server.url("/delay/600000?tag=in-flight"))) }
        #expect(await eventually { server.requestCount(path: "/delay/600000") == 1 })

        try await transport?.shutdown()
        let inFlightError = try await inFlight.value
        #expect(inFlightError != nil, "the request in flight ended with an error")
        try await transport?.shutdown()  // a second call returns
        let later = await failure(of: client, try Request(url: server.url("/small")))
        #expect(later?.kind == .transport, "\(String(describing: later))")
        #expect(later?.message.contains("shut down") == true, "\(String(describing: later))")
        #expect(await server.waitForDisconnect(tag: "in-flight", timeout: .seconds(60)), "the in-flight request's connection closed")
        if kind == .urlSession {
            // Declared above: the idle connection stays open until the transport is released.
            #expect(server.openConnections == 1, "FoundationNetworking kept its idle connection")
        } else {
            #expect(await eventually { server.openConnections == 0 }, "the transport's connections closed")
        }
        transport = nil
        _ = consume client
        #expect(await eventually { server.openConnections == 0 }, "the released transport's connections closed")
        try await server.shutdown()
    }

    /// Sends two requests the server holds until both arrived: the client then has two connections.
    private func openTwoConnections(_ client: Client, _ server: LoopbackServer) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 1...2 {
                group.addTask { _ = try await client.send(try Request(url: server.url("/gate/two?id=\(id)"))) }
            }
            #expect(await eventually { server.gate(key: "two").held == 2 })
            server.release(key: "two")
            try await group.waitForAll()
        }
    }
}
