import Foundation
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// `yard request --cache postgres://…` and `yard burst --cache --shared-state …`: processes sharing
/// one HTTP cache through the PostgreSQL server `make test` starts.
@Suite(.timeLimit(.minutes(5))) struct YardFleetCacheTests {
    @Test(arguments: ["curl", "urlsession", "ahc"])
    func aResponseStoredByOneProcessIsAHitInAnother(transport: String) async throws {
        let database = try YardFleetTests.databaseURL()
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let key = "fleet-cache-\(transport)-\(UUID().uuidString.prefix(8))"
        // 3 MB: a body the store keeps in several rows and streams back.
        let url = server.url("/cache/\(key)?max_age=600&bytes=3000000")
        let request = ["request", url, "-o", "/dev/null", "-w", "%{json}", "--cache", database, "--transport", transport]
        let first = try await runYard(request)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try YardCacheTests.cache(first.stdout)["source"] as? String == "network")
        let second = try await runYard(request)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try YardCacheTests.cache(second.stdout)["source"] as? String == "cache")
        #expect(try jsonObject(second.stdout)["body_sha256"] as? String == (try jsonObject(first.stdout)["body_sha256"] as? String))
        #expect(server.requestCount(path: "/cache/\(key)") == 1)
    }

    @Test func burstsOfFourProcessesShareOneFetch() async throws {
        let database = try YardFleetTests.databaseURL()
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let key = "fleet-burst-\(UUID().uuidString.prefix(8))"
        let burst: @Sendable () async throws -> (status: Int32, stdout: String, stderr: String) = {
            try await runYard([
                "burst", server.url("/cache/\(key)?max_age=600"), "--count", "5", "--concurrency", "1", "--cache",
                "--shared-state", database, "--shared-state-timeout", "180", "--json"
            ])
        }
        let first = try await burst()
        #expect(try jsonObject(first.stdout)["statuses"] as? [String: Int] == ["200": 5], "\(first.stdout)")
        let others = (0..<3).map { _ in Task { try await burst() } }
        for run in others {
            let result = try await run.value
            #expect(try jsonObject(result.stdout)["statuses"] as? [String: Int] == ["200": 5], "\(result.stdout)")
            #expect(try jsonObject(result.stdout)["distinct_bodies"] as? Int == 1)
        }
        #expect(server.requestCount(path: "/cache/\(key)") == 1)
    }

    @Test func withTheDatabaseStoppedABurstGoesOnWithinTheBoundAndTheEntryIsBackAfter() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = root.path + "/scripts/test-postgres.sh"
        let port = "54349"
        let started = try await runProgram("env", ["SWITCHYARD_POSTGRES_PORT=\(port)", script, "start"])
        try #require(started.status == 0, "\(started.stderr)")
        let database = "postgres://postgres@127.0.0.1:\(port)/switchyard_test"
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let burst = {
            try await runYard([
                "burst", server.url("/cache/fault?max_age=600"), "--count", "10", "--concurrency", "1", "--cache",
                "--rate-limit", "1000", "--breaker-failures", "5", "--shared-state", database, "--shared-state-timeout", "10",
                "--json"
            ])
        }
        #expect(try jsonObject(try await burst().stdout)["statuses"] as? [String: Int] == ["200": 10])
        #expect(server.requestCount(path: "/cache/fault") == 1)

        let paused = try await runProgram("env", ["SWITCHYARD_POSTGRES_PORT=\(port)", script, "pause"])
        try #require(paused.status == 0, "\(paused.stderr)")
        let down = try await burst()
        #expect(down.status == 0, "\(down.stdout) \(down.stderr)")
        #expect(try jsonObject(down.stdout)["statuses"] as? [String: Int] == ["200": 10], "\(down.stdout)")
        #expect(server.requestCount(path: "/cache/fault") > 1)  // the cache was out: the server answered

        let resumed = try await runProgram("env", ["SWITCHYARD_POSTGRES_PORT=\(port)", script, "resume"])
        try #require(resumed.status == 0, "\(resumed.stderr)")
        let fetched = server.requestCount(path: "/cache/fault")
        let back = try await burst()
        #expect(try jsonObject(back.stdout)["statuses"] as? [String: Int] == ["200": 10], "\(back.stdout)")
        #expect(server.requestCount(path: "/cache/fault") == fetched)  // all ten from the fleet's cache
        _ = try await runProgram("env", ["SWITCHYARD_POSTGRES_PORT=\(port)", script, "stop"])
    }
}
