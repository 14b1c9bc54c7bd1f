import Foundation
import SwitchyardTestServer
import Testing

/// `yard request --output/--resume`, `-F` and `--progress`.
@Suite(.timeLimit(.minutes(3))) struct YardTransferTests {
    private func size(of path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
    }

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
        // The server stops at 2,000,000 bytes; once they are on disk it drops the connection.
        async let interrupted = runYard([
            "request", server.url("/bytes/\(count)?stall_at=2000000&tag=yard"),
            "--output", path, "-w", "%{json}"
        ])
        var waited = 0
        while size(of: path + ".part") != 2_000_000, waited < 60_000 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 10
        }
        server.dropConnections(tag: "yard")
        let cut = try await interrupted
        #expect(cut.status == 18)  // curl's CURLE_PARTIAL_FILE: the connection closed mid-body
        #expect(!FileManager.default.fileExists(atPath: path))
        let partial = try #require(size(of: path + ".part"))
        #expect(partial == 2_000_000)
        #expect(try jsonObject(cut.stdout)["resumed_from"] is NSNull)

        let resumed = try await runYard(["request", server.url("/bytes/\(count)?tag=yard"), "--output", path, "--resume", "-w", "%{json}"])
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
        let direct = try await runYard(["request", server.url("/bytes/\(count)"), "--output", whole, "-w", "%{json}"])
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
        async let interrupted = runYard(["request", server.url("/bytes/100000?stall_at=5000&tag=first"), "--output", path, "-w", "%{json}"])
        var waited = 0
        while size(of: path + ".part") != 5000, waited < 60_000 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 10
        }
        server.dropConnections(tag: "first")
        #expect(try await interrupted.status == 18)
        let run = try await runYard(["request", server.url("/bytes/100000?tag=fresh"), "--output", path, "-w", "%{json}"])
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
        let run = try await runYard([
            "request", server.url("/upload/multipart"), "-F", "title=Ferien",
            "-F", "doc=@\(path);type=text/plain"
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let parts = try #require(try jsonObject(run.stdout)["parts"] as? [[String: Any]])  // the body alone
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
        let run = try await runYard(["request", server.url("/bytes/20000000"), "--output", path, "--progress", "-w", "%{json}"])
        #expect(run.status == 0)
        let lines = run.stderr.split(separator: "\n").filter { $0.hasPrefix("download: ") }
        #expect(lines.map { $0.split(separator: " ")[1] } == (1...10).map { "\($0 * 10)%"[...] })
        #expect(lines.last == "download: 100% (20000000 of 20000000 bytes)")
    }

    @Test func aFileUploadShowsItsProgress() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let path = temporaryPath("upload")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: 0x62, count: 3_000_000).write(to: URL(fileURLWithPath: path))
        let run = try await runYard(["request", server.url("/echo"), "--data-file", path, "--progress", "-o", "/dev/null", "-w", "%{json}"])
        #expect(run.status == 0)
        let lines = run.stderr.split(separator: "\n").filter { $0.hasPrefix("upload: ") }
        #expect(lines.count == 10)
        #expect(lines.last == "upload: 100% (3000000 of 3000000 bytes)")
    }

    @Test func resumeNeedsOutput() async throws {
        let run = try await runYard(["request", "http://127.0.0.1:1/", "--resume"])
        #expect(run.status == 64)
    }
}
