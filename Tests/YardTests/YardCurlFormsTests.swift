import Foundation
import SwitchyardTestServer
import Testing

/// curl's long option forms, and `--print-curl`.
@Suite(.timeLimit(.minutes(2))) struct YardCurlFormsTests {
    @Test func longFormsSendTheMethodHeaderAndFileBody() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("yard-data-binary-\(UUID().uuidString)")
        try Data("line one\r\nline two\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try await runYard([
            "request", server.url("/echo/body"), "--request", "PUT",
            "--header", "Content-Type: text/plain", "--data-binary", "@" + file.path,
            "--max-time", "30", "--compressed", "--verbose"
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "line one\r\nline two\n")  // the body alone, byte for byte, CR LF kept
        #expect(!run.stderr.isEmpty)  // --verbose draws the waterfall
        let echo = try await runYard(["request", server.url("/echo"), "--data", "x=1", "-o", "/dev/null", "-w", "%{json}"])
        let json = try jsonObject(echo.stdout)
        #expect(json["status"] as? Int == 200)
        #expect(server.requestCount(path: "/echo") == 1)
    }

    @Test func locationFollowsRedirects() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let returned = try jsonObject(try await runYard(["request", server.url("/redirect/3"), "-o", "/dev/null", "-w", "%{json}"]).stdout)
        #expect(returned["status"] as? Int == 302)
        let followed = try jsonObject(
            try await runYard(["request", server.url("/redirect/3"), "-L", "-o", "/dev/null", "-w", "%{json}"]).stdout)
        #expect(followed["status"] as? Int == 200)
        #expect(followed["redirects"] as? Int == 3)
        let limited = try jsonObject(
            try await runYard([
                "request", server.url("/redirect/3"), "--location",
                "--max-redirects", "1", "-o", "/dev/null", "-w", "%{json}"
            ]).stdout)
        let error = try #require(limited["error"] as? [String: Any])
        #expect(error["kind"] as? String == "tooManyRedirects")
    }

    @Test func printCurlShowsTheRequestWithSecretsMaskedAndSendsNothing() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let run = try await runYard([
            "request", server.url("/echo?token=s3cr3t-value&page=2"), "-X", "POST",
            "-H", "Authorization: Bearer abcdef123456", "-d", "{\"id\":1}", "--print-curl"
        ])
        #expect(run.status == 0)
        let line = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line.hasPrefix("curl -X 'POST' 'http://127.0.0.1:\(server.port)/echo?token=<redacted>&page=2'"), "\(line)")
        #expect(line.contains("-H 'Authorization: <redacted>'"))
        #expect(line.contains("--data-binary '{\"id\":1}'"))
        #expect(!line.contains("abcdef123456") && !line.contains("s3cr3t"))
        #expect(server.requestCount(path: "/echo") == 0)
    }
}
