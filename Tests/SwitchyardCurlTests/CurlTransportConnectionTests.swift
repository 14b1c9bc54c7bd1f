import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct CurlTransportConnectionTests {
    /// Sends `count` requests at once and waits for all of them.
    private func burst(_ client: Client, _ url: String, count: Int) async throws {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<count {
                group.addTask { try await client.send(Request(url: url)).head.status.code }
            }
            for try await status in group { #expect(status == 200) }
        }
    }

    /// Sends `count` requests to `/gate/{key}` at once and lets them through only once the server
    /// holds every one of them, so that they overlap whatever the machine's load: each needs its own
    /// connection. Then waits for all of them.
    private func heldBurst(_ client: Client, _ server: LoopbackServer, key: String, count: Int) async throws {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<count {
                group.addTask { try await client.send(Request(url: server.url("/gate/\(key)?id=\(index)"))).head.status.code }
            }
            #expect(await eventually { server.gate(key: key).held == count }, "the server holds all \(count) at once")
            server.release(key: key)
            for try await status in group { #expect(status == 200) }
        }
    }

    @Test func connectionsOfABurstStayOpenForTheNextBurst() async throws {
        try await withCurlClient { client, server in
            try await heldBurst(client, server, key: "first", count: 16)
            #expect(server.openConnections == 16)
            // A lull with a single request: libcurl's default cache would shrink to a few
            // connections here and close the rest.
            _ = try await client.send(Request(url: server.url("/small")))
            #expect(server.openConnections == 16)
            // The next burst finds all 16 open: it needs no new connection.
            try await heldBurst(client, server, key: "second", count: 16)
            #expect(server.openConnections == 16)
            #expect(server.acceptedConnections == 16)
        }
    }

    @Test func withoutBusyPollingRequestsStillFlow() async throws {
        try await withCurlClient(configuration: .init(busyPollDuration: .zero)) { client, server in
            for _ in 0..<20 {
                let response = try await client.send(Request(url: server.url("/small")))
                #expect(response.head.status == .ok)
                #expect(response.body.count == 13)
            }
            try await burst(client, server.url("/small"), count: 32)
        }
    }
}
