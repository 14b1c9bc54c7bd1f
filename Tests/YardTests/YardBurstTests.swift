import Foundation
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// `yard burst` against the loopback server.
@Suite(.timeLimit(.minutes(3))) struct YardBurstTests {
    @Test(arguments: ["curl", "urlsession", "ahc"])
    func aPerHostLimitHoldsTheServerAtItWhileEveryCallIsCounted(transport: String) async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let key = "burst-\(transport)"
        let run = Task {
            try await runYard([
                "burst", server.url("/gate/\(key)?id=same"), "--count", "20", "--max-per-host", "3",
                "--transport", transport, "--json"
            ])
        }
        #expect(await eventually { server.gate(key: key).held == 3 })
        server.release(key: key)
        let result = try await run.value
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try jsonObject(result.stdout)
        #expect(summary["calls"] as? Int == 20)
        #expect(summary["ok"] as? Int == 20)
        #expect(summary["statuses"] as? [String: Int] == ["200": 20])
        #expect(summary["errors"] as? [String: Int] == [:])
        #expect(summary["distinct_bodies"] as? Int == 1)
        #expect(summary["elapsed_ms"] is Double || summary["elapsed_ms"] is Int)
        #expect(server.gate(key: key).arrivals.count == 20)
        #expect(server.gate(key: key).maxConcurrent <= 3)
    }

    @Test(arguments: ["curl", "urlsession", "ahc"])
    func coalescedCallsReachTheServerOnceAndShareOneBody(transport: String) async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let key = "burst-coalesce-\(transport)"
        let path = "/hold/\(key)/100000"
        let run = Task {
            try await runYard(["burst", server.url(path), "--count", "50", "--coalesce", "--transport", transport, "--json"])
        }
        // The first call is held by the server; the others join it while it is. While its head is
        // pending no caller may start an exchange of its own, so until the release the server sees
        // exactly one request (without coalescing, the other 49 would reach it during the pause, which
        // only gives them time to). Another process's joins cannot be observed: a call that the
        // scheduler started only after the head was delivered would rightly start its own exchange,
        // so the count after the release is one plus such late calls, never more; the library's own
        // test, CoalescingLoopbackTests, checks exactly one hit in all.
        #expect(await eventually { server.requestCount(path: path) == 1 })
        try await Task.sleep(for: .milliseconds(500))
        let beforeRelease = server.requestCount(path: path)
        server.release(key: key)
        let result = try await run.value
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try jsonObject(result.stdout)
        #expect(summary["ok"] as? Int == 50)
        #expect(summary["statuses"] as? [String: Int] == ["200": 50])
        #expect(summary["distinct_bodies"] as? Int == 1)
        #expect(beforeRelease == 1, "\(beforeRelease) requests reached the server while the first was held")
    }

    @Test(arguments: ["curl", "urlsession", "ahc"])
    func theBreakerOpensAfterConsecutiveFailuresAndTheRestFailFast(transport: String) async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await runYard([
            "burst", server.url("/status/503"), "--count", "10", "--concurrency", "1",
            "--breaker-failures", "2", "--transport", transport, "--json"
        ])
        #expect(result.status == 1)
        let summary = try jsonObject(result.stdout)
        #expect(summary["ok"] as? Int == 2)
        #expect(summary["statuses"] as? [String: Int] == ["503": 2])
        #expect(summary["errors"] as? [String: Int] == ["circuitOpen": 8])
        #expect(server.requestCount(path: "/status/503") == 2)
    }

    @Test func failedCallsAreCountedByKindAndTheExitStatusSaysSo() async throws {
        let result = try await runYard(["burst", "http://127.0.0.1:9/refused", "--count", "5", "--concurrency", "2", "--json"])
        #expect(result.status == 1)
        let summary = try jsonObject(result.stdout)
        #expect(summary["ok"] as? Int == 0)
        #expect(summary["errors"] as? [String: Int] == ["connectionFailed": 5])
        #expect(summary["statuses"] as? [String: Int] == [:])
        #expect(summary["distinct_bodies"] as? Int == 0)
    }
}
