import Foundation
import SwitchyardTestServer
import Testing

/// `yard request --cache DIR`: separate processes sharing one cache directory.
@Suite(.timeLimit(.minutes(2))) struct YardCacheTests {
    static func directory() -> String {
        NSTemporaryDirectory() + "yard-cache-\(UUID().uuidString)"
    }

    static func cache(_ stdout: String) throws -> [String: Any] {
        try #require(try jsonObject(stdout)["cache"] as? [String: Any])
    }

    @Test func aSecondProcessIsServedFromTheFirstProcessEntries() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let directory = Self.directory()
        let url = server.url("/cache/yard?max_age=600")
        let first = try await runYard(["request", url, "-o", "/dev/null", "-w", "%{json}", "--cache", directory])
        #expect(first.status == 0)
        #expect(try Self.cache(first.stdout)["source"] as? String == "network")
        let second = try await runYard(["request", url, "-o", "/dev/null", "-w", "%{json}", "--cache", directory])
        #expect(second.status == 0)
        let cache = try Self.cache(second.stdout)
        #expect(cache["source"] as? String == "cache")
        #expect(cache["age_s"] is Double || cache["age_s"] is Int)
        #expect(try jsonObject(second.stdout)["body_sha256"] as? String == (try jsonObject(first.stdout)["body_sha256"] as? String))
        #expect(server.requestCount(path: "/cache/yard") == 1)
    }

    @Test func twoProcessesWritingOneDirectoryLeaveAnIntactEntry() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let directory = Self.directory()
        let url = server.url("/cache/shared?max_age=600")
        async let one = runYard(["request", url, "-o", "/dev/null", "-w", "%{json}", "--cache", directory])
        async let two = runYard(["request", url, "-o", "/dev/null", "-w", "%{json}", "--cache", directory, "--transport", "ahc"])
        let (first, second) = try await (one, two)
        #expect(first.status == 0 && second.status == 0)
        let offline = try await runYard([
            "request", url, "-o", "/dev/null", "-w", "%{json}", "--cache", directory, "--cache-policy", "cache-only"
        ])
        #expect(offline.status == 0)
        #expect(try Self.cache(offline.stdout)["source"] as? String == "cache")
        let body = try jsonObject(offline.stdout)["body_sha256"] as? String
        let written = [try jsonObject(first.stdout)["body_sha256"] as? String, try jsonObject(second.stdout)["body_sha256"] as? String]
        #expect(written.contains(body))
    }

    @Test func staleIfErrorOverAClosedPortServesTheStoredResponse() async throws {
        let server = try await LoopbackServer.start()
        let directory = Self.directory()
        let url = server.url("/cache/offline?max_age=0")
        let first = try await runYard(["request", url, "-o", "/dev/null", "-w", "%{json}", "--cache", directory])
        #expect(first.status == 0)
        try await server.shutdown()
        let refusing = try RefusingPort(port: server.port)  // the port refuses, and no other test's server takes it
        defer { refusing.close() }
        let stale = try await runYard([
            "request", url, "-o", "/dev/null", "-w", "%{json}", "--cache", directory, "--cache-policy", "stale-if-error"
        ])
        #expect(stale.status == 0)
        #expect(try Self.cache(stale.stdout)["source"] as? String == "stale")
        let missing = try await runYard([
            "request", server.url("/cache/never"), "-o", "/dev/null", "-w", "%{json}", "--cache", directory,
            "--cache-policy", "cache-only"
        ])
        #expect(missing.status == 1)  // no curl number for a cache miss
        let error = try #require(try jsonObject(missing.stdout)["error"] as? [String: Any])
        #expect(error["kind"] as? String == "cacheMiss")
    }
}
