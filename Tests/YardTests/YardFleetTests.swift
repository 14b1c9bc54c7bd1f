import Foundation
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// Several `yard burst` processes sharing state through the PostgreSQL server `make test` starts
/// (`SWITCHYARD_POSTGRES_URL`, `scripts/test-postgres.sh`): the fleet behaves as one.
@Suite(.timeLimit(.minutes(5))) struct YardFleetTests {
    static func databaseURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["SWITCHYARD_POSTGRES_URL"] else {
            Issue.record("SWITCHYARD_POSTGRES_URL is not set: run `make test`, or `eval \"$(scripts/test-postgres.sh start)\"` first.")
            throw CancellationError()
        }
        return url
    }

    @Test(arguments: ["curl", "urlsession", "ahc"])
    func fourProcessesWithTwentyConcurrentRequestsEachRefreshAnExpiredTokenOnce(transport: String) async throws {
        let database = try Self.databaseURL()
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let key = "fleet-\(transport)-\(UUID().uuidString.prefix(8))"
        let tokenURL = server.url("/token/\(key)")
        // A first process gets the fleet its token (one issue), which the server then stops accepting.
        let first = try await runYard([
            "burst", server.url("/auth/\(key)"), "--count", "1", "--token-url", tokenURL, "--shared-state", database,
            "--transport", transport, "--json"
        ])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(server.issuedTokens(key: key) == 1)
        server.setAuthToken("revoked", key: key)

        // Four processes, twenty requests each at once, all refused with the fleet's expired token.
        let runs = (0..<4).map { _ in
            Task {
                try await runYard([
                    "burst", server.url("/auth/\(key)"), "--count", "20", "--concurrency", "20",
                    "--token-url", tokenURL, "--shared-state", database, "--transport", transport, "--json"
                ])
            }
        }
        for run in runs {
            let result = try await run.value
            #expect(result.status == 0, "\(result.stderr)")
            let summary = try jsonObject(result.stdout)
            #expect(summary["statuses"] as? [String: Int] == ["200": 20], "\(result.stdout)")
        }
        #expect(server.issuedTokens(key: key) == 2)  // the first one, and one refresh for the whole fleet
        #expect(server.authRequests(key: key).accepted == 81)
    }

    @Test func withoutSharedStateEachProcessRefreshesOnItsOwn() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let key = "alone-\(UUID().uuidString.prefix(8))"
        let runs = (0..<2).map { _ in
            Task {
                try await runYard([
                    "burst", server.url("/auth/\(key)"), "--count", "5", "--token-url", server.url("/token/\(key)"), "--json"
                ])
            }
        }
        for run in runs { _ = try await run.value }
        // Each process fetched a token of its own (and each fetch revoked the one before): what the
        // shared state prevents. Which requests then succeed depends on how the fetches interleave.
        #expect(server.issuedTokens(key: key) >= 2)
    }
}
