import Switchyard
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// `shutdown()` on every transport: requests in flight end (none hangs), the transport's connections
/// close (the server sees it; curl and AsyncHTTPClient at once, URLSession once the transport is
/// released), a second call returns, and later requests fail with a `transport` error instead of
/// hanging or crashing.
@Suite(.timeLimit(.minutes(2))) struct TransportShutdownTests {
    @Test(arguments: TransportKind.allCases)
    func shutdownEndsRequestsInFlightClosesConnectionsAndRefusesLaterRequests(_ kind: TransportKind) async throws {
        let server = try await LoopbackServer.start()
        var transport: (any Transport)? = kind.make()
        let client = Client(transport: try #require(transport), interceptors: [])
        _ = try await client.send(try Request(url: server.url("/small")))
        let inFlight = Task { await failure(of: client, try Request(url: server.url("/delay/600000"))) }
        #expect(await eventually { server.requestCount(path: "/delay/600000") == 1 })

        try await transport?.shutdown()
        let inFlightError = try await inFlight.value
        #expect(inFlightError != nil, "the request in flight ended with an error")
        try await transport?.shutdown()  // a second call returns
        let later = await failure(of: client, try Request(url: server.url("/small")))
        #expect(later?.kind == .transport, "\(String(describing: later))")
        #expect(later?.message.contains("shut down") == true, "\(String(describing: later))")
        if kind != .urlSession {
            #expect(await eventually { server.openConnections == 0 }, "the transport's connections closed")
        }
        transport = nil
        _ = consume client
        #expect(await eventually { server.openConnections == 0 }, "the released transport's connections closed")
        try await server.shutdown()
    }
}
