import Foundation
import SwitchyardTestServer
import Testing

/// `yard pages` against the loopback server's `/pages/{key}` lists.
@Suite(.timeLimit(.minutes(3))) struct YardPagesTests {
    /// The JSON lines of a run's standard output.
    private func lines(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { try jsonObject(String($0)) }
    }

    @Test(arguments: [
        ("flag", ["--has-next-path", "data.has_next"]),
        ("total", ["--total-path", "data.total"]),
        ("short", [])
    ])
    func walksAGrowingListWithEveryHasNextStyle(style: String, flags: [String]) async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let run = try await runYard(
            [
                "pages", server.url("/pages/\(style)?style=\(style)&insert=2"),
                "--items-path", "data.items", "--id-path", "id",
                "--size-param", "size", "--size", "10"
            ] + flags)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try lines(run.stdout)
        try #require(lines.count == 13)
        let pages = lines.dropLast()
        #expect(pages.map { $0["page"] as? Int } == Array(1...12))
        #expect(pages.allSatisfy { $0["state"] as? String == "succeeded" && $0["error"] is NSNull })
        #expect(pages.map { $0["duplicates"] as? Int } == [0] + Array(repeating: 2, count: 11))
        #expect(pages.map { $0["has_next"] as? Bool } == Array(repeating: true, count: 11) + [false])
        #expect(Set(lines[0].keys) == ["page", "state", "items", "new", "duplicates", "has_next", "error"])
        let done = try #require(lines.last)
        #expect(done["done"] as? Bool == true)
        #expect(done["state"] as? String == "succeeded")
        #expect(done["unique"] as? Int == 95)
        #expect(done["pages_loaded"] as? Int == 12)
        #expect(done["loads"] as? Int == 12)
        #expect(server.pageRequests(key: style) == Array(1...12))
    }

    @Test func aFailedPageIsAskedForAgainAndLoaded() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let run = try await runYard([
            "pages", server.url("/pages/fail?total=30&fail=3"), "--items-path", "data.items",
            "--id-path", "id", "--has-next-path", "data.has_next", "--transport", "ahc"
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try lines(run.stdout)
        #expect(lines.map { $0["page"] as? Int } == [1, 2, 3, 3, nil])
        #expect(lines.map { $0["state"] as? String } == ["succeeded", "succeeded", "failed", "succeeded", "succeeded"])
        let error = try #require(lines[2]["error"] as? [String: Any])
        #expect(error["kind"] as? String == "httpStatus")
        #expect(lines.last?["unique"] as? Int == 30)
        #expect(lines.last?["loads"] as? Int == 4)
        #expect(lines.last?["pages_loaded"] as? Int == 3)
        #expect(server.pageRequests(key: "fail") == [1, 2, 3, 3])
    }

    @Test func aWrongItemsPathGivesUpAfterTheRetriesWithExitOne() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let run = try await runYard([
            "pages", server.url("/pages/wrong"), "--items-path", "data.list", "--id-path", "id",
            "--retry-failed-page", "1", "--transport", "urlsession"
        ])
        #expect(run.status == 1)
        let lines = try lines(run.stdout)
        #expect(lines.count == 3)
        let error = try #require(lines[0]["error"] as? [String: Any])
        #expect(error["kind"] as? String == "decoding")
        #expect((error["message"] as? String)?.contains("data.list") == true)
        #expect(lines[1]["page"] as? Int == 1)
        #expect(lines.last?["state"] as? String == "failed")
        #expect(lines.last?["loads"] as? Int == 2)
        #expect(server.pageRequests(key: "wrong") == [1, 1])
    }

    @Test(arguments: ["/pages/none/empty", "/pages/none/no-content"])
    func anEmptyListIsNoDataWithExitZero(path: String) async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let run = try await runYard(["pages", server.url(path), "--items-path", "data.items", "--id-path", "id"])
        #expect(run.status == 0)
        let lines = try lines(run.stdout)
        #expect(lines.map { $0["state"] as? String } == ["noData", "noData"])
        #expect(lines.last?["unique"] as? Int == 0)
    }

    @Test func theQueryIsKeptAndTheFirstPageAndMaxPagesAreHonoured() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let run = try await runYard([
            "pages", server.url("/pages/zero?first=0&total=50"), "--items-path", "data.items",
            "--id-path", "id", "--has-next-path", "data.has_next", "--first-page", "0",
            "--page-param", "page", "--max-pages", "3", "-H", "X-Trace: yes"
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(server.pageRequests(key: "zero") == [0, 1, 2])
        let lines = try lines(run.stdout)
        #expect(lines.last?["unique"] as? Int == 30)
        #expect(lines.last?["state"] as? String == "succeeded")
    }

    @Test(arguments: [
        ["--has-next-path", "a", "--total-path", "b"],
        ["--size-param", "size"],
        ["-H", "no colon"],
        ["--items-path", "data[", "--size", "0"],
        ["--retry-failed-page", "-1"]
    ])
    func badUsageExitsSixtyFour(extra: [String]) async throws {
        let run = try await runYard(
            ["pages", "http://127.0.0.1:9/x", "--items-path", "data.items", "--id-path", "id"]
                + extra)
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
    }

    @Test func aURLThatIsNotAbsoluteIsBadUsage() async throws {
        let run = try await runYard(["pages", "not a url", "--items-path", "data.items", "--id-path", "id"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("not an absolute URL"))
    }
}
