import Foundation
import SwitchyardCore
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// Several `yard burst` processes sharing rate-limit buckets and circuit breakers through the
/// PostgreSQL server `make test` starts: the fleet holds one rate and one view of a failing host.
@Suite(.timeLimit(.minutes(5))) struct YardFleetTrafficTests {
    /// Removes what an earlier run may have left under `key` (a server port used again).
    static func forget(_ key: String, in table: String, database: String) async throws {
        _ = try await runProgram("psql", [database, "-q", "-c", "DELETE FROM \(table) WHERE key = '\(key)'"])
    }

    @Test(arguments: ["curl", "urlsession", "ahc"])
    func fourProcessesTogetherHoldOneRateLimit(transport: String) async throws {
        let database = try YardFleetTests.databaseURL()
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let host = String(server.baseURL.dropFirst("http://".count))
        try await Self.forget(host, in: "switchyard_rate_buckets", database: database)
        let key = "rate-\(transport)"
        let launched = ContinuousClock.now
        let runs = (0..<4).map { _ in
            Task {
                try await runYard([
                    "burst", server.url("/flaky/\(key)/0"), "--count", "200", "--concurrency", "64", "--rate-limit", "50",
                    "--shared-state", database, "--shared-state-timeout", "180", "--transport", transport, "--json"
                ])
            }
        }
        for run in runs {
            let result = try await run.value
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try jsonObject(result.stdout)["statuses"] as? [String: Int] == ["200": 200], "\(result.stdout)")
        }
        // Every prefix of the arrivals fits the fleet's bucket: the burst, plus the rate since launch.
        let arrivals = server.flakyArrivals(key: key)
        #expect(arrivals.count == 800)
        let excess = arrivals.enumerated().filter { index, arrival in
            Double(index + 1) > 50 + 50 * launched.duration(to: arrival).milliseconds / 1000 + 1
        }
        #expect(excess.isEmpty, "\(excess.count) arrivals came faster than 50 per second plus a burst of 50")
    }

    @Test func failuresSeenByThreeProcessesOpenTheHostForTheFourth() async throws {
        let database = try YardFleetTests.databaseURL()
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let host = String(server.baseURL.dropFirst("http://".count))
        try await Self.forget(host, in: "switchyard_circuits", database: database)
        let burst = {
            try await runYard([
                "burst", server.url("/status/500"), "--count", "1", "--breaker-failures", "3",
                "--shared-state", database, "--shared-state-timeout", "180", "--json"
            ])
        }
        for _ in 0..<3 {
            let failing = try await burst()
            #expect(try jsonObject(failing.stdout)["statuses"] as? [String: Int] == ["500": 1], "\(failing.stdout)")
        }
        let fourth = try await burst()
        #expect(fourth.status == 1)
        #expect(try jsonObject(fourth.stdout)["errors"] as? [String: Int] == ["circuitOpen": 1], "\(fourth.stdout)")
        #expect(server.requestCount(path: "/status/500") == 3)
    }

    @Test(arguments: ["curl", "urlsession", "ahc"])
    func fourProcessesAtOnceStopSoonAfterTheFleetsThirdFailure(transport: String) async throws {
        let database = try YardFleetTests.databaseURL()
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let host = String(server.baseURL.dropFirst("http://".count))
        try await Self.forget(host, in: "switchyard_circuits", database: database)
        let runs = (0..<4).map { _ in
            Task {
                try await runYard([
                    "burst", server.url("/status/500"), "--count", "10", "--concurrency", "1", "--breaker-failures", "3",
                    "--shared-state", database, "--shared-state-timeout", "180", "--transport", transport, "--json"
                ])
            }
        }
        for run in runs {
            let result = try await run.value
            #expect(try (jsonObject(result.stdout)["errors"] as? [String: Int])?["circuitOpen"] ?? 0 >= 7, "\(result.stdout)")
        }
        // Alone, each process would send 3 before its breaker opened (12). Shared: the fleet's third
        // failure opens the host, and each other process sends at most the one it had in flight.
        #expect(server.requestCount(path: "/status/500") <= 6)
    }
}
