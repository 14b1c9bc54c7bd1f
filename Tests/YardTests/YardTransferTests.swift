import Foundation
import SwitchyardTestServer
import Testing

/// `yard request --output/--resume`, `-F` and `--progress`.
@Suite(.timeLimit(.minutes(3))) struct YardTransferTests {
    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("yard-\(name)-\(UUID().uuidString)").path
    }

    @Test func anInterruptedOutputLeavesThePartialFileAndResumeCompletesIt() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let path = temporaryPath("resume")
        defer {
            for suffix in ["", ".part", ".part.validator"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let count = 5_000_000
        let cut = try await runYard(["request", server.url("/bytes/\(count)?cut_after=2000000&tag=yard"),
                                     "--output", path, "--json"])
        #expect(cut.status == 1)
        #expect(!FileManager.default.fileExists(atPath: path))
        let partial = try #require(try FileManager.default.attributesOfItem(atPath: path + ".part")[.size] as? Int)
        #expect(partial > 0 && partial <= 2_000_000)
        #expect(try jsonObject(cut.stdout)["resumed_from"] is NSNull)

        let resumed = try await runYard(["request", server.url("/bytes/\(count)?tag=yard"), "--output", path, "--resume", "--json"])
        #expect(resumed.status == 0, "\(resumed.stdout)\(resumed.stderr)")
        let json = try jsonObject(resumed.stdout)
        #expect(json["status"] as? Int == 206)
        #expect(json["resumed_from"] as? Int == partial)
        #expect(json["body_bytes"] as? Int == count)
        #expect(server.rangeHeaders(tag: "yard") == [nil, "bytes=\(partial)-"])
        #expect(!FileManager.default.fileExists(atPath: path + ".part"))
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(written.count == count)
        #expect(written.enumerated().allSatisfy { $0.element == UInt8($0.offset % 251) })

        // The digest describes the whole file: the same as a download in one go.
        let whole = temporaryPath("whole")
        defer { try? FileManager.default.removeItem(atPath: whole) }
        let direct = try await runYard(["request", server.url("/bytes/\(count)"), "--output", whole, "--json"])
        #expect(try jsonObject(direct.stdout)["body_sha256"] as? String == json["body_sha256"] as? String)
        #expect(try jsonObject(direct.stdout)["resumed_from"] is NSNull)
    }

    @Test func withoutResumeAnExistingPartialFileIsStartedAgain() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let path = temporaryPath("fresh")
        defer {
            for suffix in ["", ".part", ".part.validator"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        _ = try await runYard(["request", server.url("/bytes/100000?cut_after=5000"), "--output", path, "--json"])
        let run = try await runYard(["request", server.url("/bytes/100000?tag=fresh"), "--output", path, "--json"])
        #expect(run.status == 0)
        #expect(server.rangeHeaders(tag: "fresh") == [nil])
        #expect(try jsonObject(run.stdout)["body_bytes"] as? Int == 100_000)
    }

    @Test func formFieldsAndFilesAreUploadedAsMultipart() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let path = temporaryPath("Grüße") + ".txt"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: 0x61, count: 300_000).write(to: URL(fileURLWithPath: path))
        let run = try await runYard(["request", server.url("/upload/multipart"), "-F", "title=Ferien",
                                     "-F", "doc=@\(path);type=text/plain"])
        #expect(run.status == 0, "\(run.stderr)")
        let body = try #require(run.stdout.components(separatedBy: "\n\n").dropFirst().first)
        let parts = try #require(try jsonObject(body)["parts"] as? [[String: Any]])
        #expect(parts.count == 2)
        #expect(parts.first?["value"] as? String == "Ferien")
        #expect(parts.last?["filename"] as? String == URL(fileURLWithPath: path).lastPathComponent)
        #expect(parts.last?["content_type"] as? String == "text/plain")
        #expect(parts.last?["bytes"] as? Int == 300_000)
    }

    @Test func progressPrintsOneLinePerTenPercentEndingAt100() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let path = temporaryPath("progress")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try await runYard(["request", server.url("/bytes/20000000"), "--output", path, "--progress", "--json"])
        #expect(run.status == 0)
        let lines = run.stderr.split(separator: "\n").filter { $0.hasPrefix("download: ") }
        #expect(!lines.isEmpty && lines.count <= 10)
        #expect(lines.last?.contains("100%") == true)
    }

    @Test func resumeNeedsOutput() async throws {
        let run = try await runYard(["request", "http://127.0.0.1:1/", "--resume"])
        #expect(run.status == 64)
    }
}
