import Foundation
import SwitchyardTestServer
import Testing

/// `yard request` with curl's habits: the body alone on standard output, byte for byte, on every transport.
@Suite(.timeLimit(.minutes(3))) struct YardCurlHabitsTests {
    static let transports = ["curl", "urlsession", "ahc"]

    /// `yard request URL | sha256sum` is the server's digest of the body: text, binary from the server,
    /// and every byte value echoed back.
    @Test(arguments: transports)
    func standardOutputIsTheBodyByteForByte(transport: String) async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        // sha256("hello, world\n")
        let text = try await yardRequestDigest([server.url("/small"), "--transport", transport])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.sha256 == "853ff93762a06ddbf722c4ebe9ddd66d8f63ddaea97f521c3ecc20da7c976020")

        // The soak route's body is binary, and its X-Soak-SHA256 field is the server's digest of it.
        let soak = server.url("/soak/yard-\(transport)?size=300000")
        let report = try jsonObject(
            try await runYard(["request", soak, "-o", "/dev/null", "-w", "%{json}", "--transport", transport]).stdout)
        let headers = try #require(report["headers"] as? [[String]])
        let served = try #require(headers.first { $0.first == "x-soak-sha256" }?.last)
        let binary = try await yardRequestDigest([soak, "--transport", transport])
        #expect(binary.status == 0, "\(binary.stderr)")
        #expect(binary.sha256 == served)

        // Every byte value (NUL, CR, bytes that are not UTF-8), echoed back.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("yard-bytes-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data((0..<4096).map { UInt8($0 % 256) }).write(to: URL(fileURLWithPath: file))
        let expected = String(try await runProgram("sha256sum", [file]).stdout.prefix(64))
        let echoed = try await yardRequestDigest([
            server.url("/echo/body"), "--data-binary", "@" + file, "-H", "Content-Type: application/octet-stream",
            "--transport", transport
        ])
        #expect(echoed.status == 0, "\(echoed.stderr)")
        #expect(echoed.sha256 == expected)
    }

    /// `-i` prints curl's head (status line, fields, blank line, CR LF each) before the body; `-I` sends
    /// HEAD and prints the head alone.
    @Test(arguments: transports)
    func includeAndHeadPrintTheHeadAsCurlDoes(transport: String) async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let included = try await runYard(["request", "-i", server.url("/small"), "--transport", transport])
        #expect(included.status == 0)
        #expect(included.stdout.hasPrefix("HTTP/1.1 200"))
        #expect(included.stdout.hasSuffix("\r\n\r\nhello, world\n"))
        #expect(included.stdout.lowercased().contains("\r\ncontent-length: 13\r\n"))
        let head = try await runYard(["request", "-I", server.url("/small"), "--transport", transport])
        #expect(head.status == 0)
        #expect(head.stdout.hasPrefix("HTTP/1.1 200"))
        #expect(head.stdout.hasSuffix("\r\n\r\n"))
        #expect(!head.stdout.contains("hello"))
        #expect(server.requestCount(path: "/small") == 2)
    }

    /// `-d` sends curl's form type, `--json` a JSON body with its types, `-u`, `-A` and `-e` their fields,
    /// and a URL without a scheme is taken as `http://`.
    @Test func bodyAndHeaderFlagsSendWhatCurlSends() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        func echoed(_ arguments: [String]) async throws -> [String: String] {
            let run = try await runYard(["request"] + arguments)
            #expect(run.status == 0, "\(run.stderr)")
            let pairs = try jsonObject(run.stdout)["headers"] as? [[String]] ?? []
            return Dictionary(pairs.map { ($0[0].lowercased(), $0[1]) }, uniquingKeysWith: { first, _ in first })
        }
        let withoutScheme = String(server.url("/echo").dropFirst("http://".count))
        let form = try await echoed([withoutScheme, "-d", "a=1", "-d", "b=2"])
        #expect(form["content-type"] == "application/x-www-form-urlencoded")
        #expect(form["content-length"] == "7")
        let typed = try await echoed([server.url("/echo"), "-d", "x", "-H", "Content-Type: text/plain"])
        #expect(typed["content-type"] == "text/plain")
        let json = try await echoed([server.url("/echo"), "--json", "{\"a\":1}"])
        #expect(json["content-type"] == "application/json")
        #expect(json["accept"] == "application/json")
        let named = try await echoed([server.url("/echo"), "-u", "ada:pw", "-A", "yard-test/1", "-e", "http://example.com/"])
        #expect(named["authorization"] == "Basic " + Data("ada:pw".utf8).base64EncodedString())
        #expect(named["user-agent"] == "yard-test/1")
        #expect(named["referer"] == "http://example.com/")
    }

    /// `-w` expands curl's variables after the body; `-o /dev/null -w '%{json}'` prints the report alone.
    @Test func writeOutPrintsCurlsVariablesAfterTheBody() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let run = try await runYard([
            "request", "-L", server.url("/redirect/2"),
            "-w", "%{http_code} %{size_download} %{num_redirects} %{url_effective} %{time_total}\\n"
        ])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "redirected")
        let fields = try #require(lines.dropFirst().first?.split(separator: " "))
        #expect(fields.prefix(4) == ["200", "11", "2", server.url("/redirect/0")[...]])
        #expect(Double(fields.last ?? "") != nil)
        let report = try await runYard(["request", server.url("/small"), "-o", "/dev/null", "-w", "%{json}"])
        #expect(try jsonObject(report.stdout)["body_bytes"] as? Int == 13)
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let missing = try await runYard(["request", refusing.url("/"), "-s", "-w", "%{http_code}"])
        #expect(missing.stdout == "000")
    }

    /// `-O` names the file after the URL, and `-C -` continues the partial file an interrupted one left.
    @Test func remoteNameAndContinueAt() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("yard-O-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func yardInDirectory(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
            let command = ([yardExecutablePath, "request"] + arguments).map(shellQuoted).joined(separator: " ")
            return try await runProgram("sh", ["-c", "cd \(shellQuoted(directory)) && \(command)"])
        }
        // The server stops sending at 100,000 bytes; once they are on disk it drops the connection.
        async let interrupted = yardInDirectory(["-O", server.url("/bytes/300000?stall_at=100000&tag=cut"), "-s"])
        let partial = directory + "/300000.part"
        var waited = 0
        while (try? FileManager.default.attributesOfItem(atPath: partial)[.size] as? NSNumber)?.intValue != 100_000, waited < 60_000 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 10
        }
        server.dropConnections(tag: "cut")
        let cut = try await interrupted
        #expect(cut.status == 18, "\(cut.stderr)")  // curl's CURLE_PARTIAL_FILE
        let resumed = try await yardInDirectory(["-C", "-", "-O", server.url("/bytes/300000"), "-w", "%{size_download}"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout == "200000")
        let written = try Data(contentsOf: URL(fileURLWithPath: directory + "/300000"))
        #expect(written.count == 300_000)
        #expect(written.enumerated().allSatisfy { $0.element == UInt8($0.offset % 251) })
    }

    /// `-s` hides the error message, `-sS` shows it again, as `yard: (N) message`.
    @Test func silentAndShowError() async throws {
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let silent = try await runYard(["request", "-s", refusing.url("/")])
        #expect(silent.status == 7)
        #expect(silent.stderr.isEmpty)
        let shown = try await runYard(["request", "-sS", refusing.url("/")])
        #expect(shown.status == 7)
        #expect(shown.stderr.hasPrefix("yard: (7) "))
    }
}
