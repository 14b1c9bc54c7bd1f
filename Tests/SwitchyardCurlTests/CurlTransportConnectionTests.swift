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

    @Test func connectionsOfABurstStayOpenForTheNextBurst() async throws {
        try await withCurlClient { client, server in
            // Overlapping requests (each waits 400 ms at the server, so they overlap even on a busy
            // machine): each needs its own connection.
            try await burst(client, server.url("/delay/400"), count: 16)
            #expect(server.openConnections == 16)
            // A lull with a single request: libcurl's default cache would shrink to a few
            // connections here and close the rest.
            _ = try await client.send(Request(url: server.url("/small")))
            try await Task.sleep(for: .milliseconds(200))
            #expect(server.openConnections == 16)
            try await burst(client, server.url("/delay/400"), count: 16)
            #expect(server.openConnections == 16)
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
