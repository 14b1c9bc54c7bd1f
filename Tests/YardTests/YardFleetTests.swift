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
            "--shared-state-timeout", "180", "--transport", transport, "--json"
        ])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(server.issuedTokens(key: key) == 1)
        server.setAuthToken("revoked", key: key)

        // Four processes, twenty requests each at once, all refused with the fleet's expired token.
        let runs = (0..<4).map { _ in
            Task {
                try await runYard([
                    "burst", server.url("/auth/\(key)"), "--count", "20", "--concurrency", "20",
                    "--token-url", tokenURL, "--shared-state", database, "--shared-state-timeout", "180",
                    "--transport", transport, "--json"
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

    @Test func aLiveLockHolderDelaysRefreshesOnlyToTheBoundAndAKilledOneReleasesIt() async throws {
        let database = try Self.databaseURL()
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let key = "held-\(UUID().uuidString.prefix(8))"
        let tokenURL = server.url("/token/\(key)")
        // The bound guards the successful runs against a hang only; the blocked run meets it by design.
        let burst = { (count: Int, bound: Int) in
            try await runYard([
                "burst", server.url("/auth/\(key)"), "--count", String(count), "--token-url", tokenURL,
                "--shared-state", database, "--shared-state-timeout", String(bound), "--json"
            ])
        }
        #expect(try await burst(1, 180).status == 0)
        server.setAuthToken("revoked", key: key)

        // Another process holds the fleet's row lock and then sits idle in its transaction, as a
        // process waiting on its token endpoint would.
        let lockRow = "SELECT 1 FROM switchyard_credentials WHERE key = '\(tokenURL)' FOR UPDATE"
        let holder = try await runProgram(
            "sh", ["-c", "exec 2>/dev/null; (echo \"BEGIN; \(lockRow);\"; sleep 120) | psql '\(database)' -q >/dev/null & echo $!"])
        let holderPID = try #require(Int32(holder.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(holderPID, SIGKILL) }
        let held = await eventually {
            let probe = try? await runProgram("psql", [database, "-q", "-c", "BEGIN; \(lockRow) NOWAIT; ROLLBACK;"])
            return probe.map { $0.status != 0 } ?? false
        }
        #expect(held)

        // While it lives, a refresh gives up at the shared state's bound: the requests fail, no fetch.
        let blocked = try await burst(3, 3)
        #expect(blocked.status == 1)
        let errors = try jsonObject(blocked.stdout)["errors"] as? [String: Int]
        #expect(errors?.values.reduce(0, +) == 3, "\(blocked.stdout)")
        #expect(Set((errors ?? [:]).keys).isSubset(of: ["unauthorized", "sharedStateUnavailable"]), "\(blocked.stdout)")
        #expect(server.issuedTokens(key: key) == 1)

        // Killed, it holds nothing: PostgreSQL rolls its transaction back, and the fleet refreshes once.
        kill(holderPID, SIGKILL)
        let released = try await burst(5, 180)
        #expect(released.status == 0, "\(released.stdout) \(released.stderr)")
        #expect(server.issuedTokens(key: key) == 2)
    }
}
