import Foundation
import SwitchyardTestServer
import Testing

/// `yard request --retries`, `--max-redirects` and `--fail`: the `%{json}` report's attempts, redirects and events
/// come from the chain's interceptors.
@Suite(.timeLimit(.minutes(2)))
struct YardChainFlagsTests {
    static func kinds(_ json: [String: Any]) -> [String] {
        (json["events"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
    }

    @Test func retriesAreCountedAndEachIsAnEvent() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let json = try jsonObject(
            try await runYard(
                ["request", server.url("/flaky/yard/2?status=503"), "--retries", "3", "-o", "/dev/null", "-w", "%{json}"]).stdout)
        #expect(json["status"] as? Int == 200)
        #expect(json["attempts"] as? Int == 3)
        #expect(Self.kinds(json) == ["started", "retrying", "retrying", "succeeded"])
        #expect(server.flakyArrivals(key: "yard").count == 3)
    }

    @Test func withoutRetriesAFailingStatusIsReturnedAfterOneAttempt() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let json = try jsonObject(
            try await runYard(["request", server.url("/flaky/once/2?status=503"), "-o", "/dev/null", "-w", "%{json}"]).stdout)
        #expect(json["status"] as? Int == 503)
        #expect(json["attempts"] as? Int == 1)
        #expect(server.flakyArrivals(key: "once").count == 1)
    }

    @Test func redirectsAreFollowedOnlyWhenAsked() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let returned = try jsonObject(try await runYard(["request", server.url("/redirect/2"), "-o", "/dev/null", "-w", "%{json}"]).stdout)
        #expect(returned["status"] as? Int == 302)
        #expect(returned["redirects"] as? Int == 0)
        let followed = try jsonObject(
            try await runYard(
                ["request", server.url("/redirect/2"), "--max-redirects", "5", "-o", "/dev/null", "-w", "%{json}"]).stdout)
        #expect(followed["status"] as? Int == 200)
        #expect(followed["redirects"] as? Int == 2)
        #expect(followed["attempts"] as? Int == 3)
        #expect(Self.kinds(followed) == ["started", "redirected", "redirected", "succeeded"])
        let limited = try await runYard(["request", server.url("/redirect/3"), "--max-redirects", "1", "-o", "/dev/null", "-w", "%{json}"])
        #expect(limited.status == 47)  // curl's CURLE_TOO_MANY_REDIRECTS
        #expect((try jsonObject(limited.stdout)["error"] as? [String: Any])?["kind"] as? String == "tooManyRedirects")
    }

    @Test func failTurnsAnErrorStatusIntoAnHTTPStatusError() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let run = try await runYard(["request", server.url("/status/404"), "--fail", "-o", "/dev/null", "-w", "%{json}"])
        #expect(run.status == 22)  // curl's CURLE_HTTP_RETURNED_ERROR
        let json = try jsonObject(run.stdout)
        #expect((json["error"] as? [String: Any])?["kind"] as? String == "httpStatus")
        #expect(Self.kinds(json).last == "failed")
    }

    @Test func verboseDrawsAWaterfallOnStandardError() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let run = try await runYard(["request", server.url("/small"), "-v"])
        #expect(run.status == 0)
        #expect(run.stderr.contains("started"))
        #expect(run.stderr.contains("succeeded"))
        #expect(run.stderr.contains("total"))
        #expect(run.stdout == "hello, world\n")
    }
}

/// `yard request --har` writes an HTTP Archive with one entry per attempt.
@Suite(.timeLimit(.minutes(2)))
struct YardHARTests {
    @Test func everyAttemptIsAnEntryWithTimingsAndNoSecrets() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("yard-\(UUID().uuidString).har").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try await runYard([
            "request", server.url("/flaky/har/1"), "--retries", "2", "--har", path,
            "-H", "Authorization: Bearer har-secret"
        ])
        #expect(run.status == 0)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("har-secret"))
        let log = try #require((try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["log"] as? [String: Any])
        #expect(log["version"] as? String == "1.2")
        let entries = try #require(log["entries"] as? [[String: Any]])
        #expect(entries.compactMap { ($0["response"] as? [String: Any])?["status"] as? Int } == [503, 200])
        for entry in entries {
            let timings = try #require(entry["timings"] as? [String: Double])
            #expect(Set(timings.keys) == ["blocked", "dns", "connect", "ssl", "send", "wait", "receive"])
            #expect((timings["wait"] ?? -1) >= 0)
            #expect(entry["startedDateTime"] is String)
        }
    }
}
