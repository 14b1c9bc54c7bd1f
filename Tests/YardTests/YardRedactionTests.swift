import Foundation
import SwitchyardTestServer
import Testing

/// `yard request` never prints or archives credential query values or URL passwords.
@Suite(.timeLimit(.minutes(2))) struct YardRedactionTests {
    @Test func verboseOutputAndTheHARFileMaskCredentialQueryValues() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let har = FileManager.default.temporaryDirectory.appendingPathComponent("yard-redaction-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: har) }
        let run = try await runYard(["request", server.url("/status/200?token=abc&page=2"), "-v", "--har", har.path])
        #expect(run.status == 0)
        let output = run.stdout + run.stderr
        #expect(!output.contains("abc"), "\(output)")
        #expect(run.stderr.contains("GET /status/200?token=<redacted>&page=2"), "\(run.stderr)")
        let archive = try String(contentsOf: har, encoding: .utf8)
        #expect(!archive.contains("abc"))
        #expect(archive.replacingOccurrences(of: "\\/", with: "/").contains("/status/200?token=<redacted>&page=2"))
    }

    @Test func aURLPasswordIsSentButNeverPrinted() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let url = "http://ada:pw-SECRET@127.0.0.1:\(server.port)/echo"
        let run = try await runYard(["request", url, "-v"])
        #expect(run.status == 0)
        // The echoed request carries the credentials encoded, never as typed.
        #expect(run.stdout.contains("Basic " + Data("ada:pw-SECRET".utf8).base64EncodedString()), "\(run.stdout)")
        #expect(!(run.stdout + run.stderr).contains("pw-SECRET"))
    }
}
