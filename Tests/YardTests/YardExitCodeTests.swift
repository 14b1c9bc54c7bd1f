import Foundation
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// `yard request` exits with curl's number for each failure, the same on every transport, and says so on
/// standard error as `yard: (N) message`.
@Suite(.timeLimit(.minutes(3))) struct YardExitCodeTests {
    /// One failure and the exit status curl gives it.
    struct Case: CustomStringConvertible {
        let name: String
        let code: Int32
        let arguments: [String]
        var description: String { "\(name) → \(code)" }
    }

    @Test(arguments: ["curl", "urlsession", "ahc"])
    func curlsExitCodesOnEveryTransport(transport: String) async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let certificates = try TestCertificates.generate()
        defer { certificates.remove() }
        // Its certificate is issued by a CA this client does not trust.
        let tlsServer = try await LoopbackServer.start(.init(tls: .init(identity: certificates.server)))
        defer { Task { try? await tlsServer.shutdown() } }
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let https = "https://" + server.url("/small").dropFirst("http://".count)
        let cases = [
            Case(name: "success", code: 0, arguments: [server.url("/small")]),
            Case(name: "a status of 404 without -f", code: 0, arguments: [server.url("/status/404")]),
            Case(name: "host not resolved", code: 6, arguments: ["http://\(unresolvableHost)/"]),
            Case(name: "connection refused", code: 7, arguments: [refusing.url("/small")]),
            Case(name: "body cut short", code: 18, arguments: [server.url("/malformed/truncated-length")]),
            Case(name: "-f and 404", code: 22, arguments: ["-f", server.url("/status/404")]),
            Case(name: "timeout", code: 28, arguments: ["-m", "0.5", server.url("/stall")]),
            Case(name: "TLS handshake with a server that speaks plain HTTP", code: 35, arguments: [https]),
            Case(name: "too many redirects", code: 47, arguments: ["-L", "--max-redirs", "1", server.url("/redirect/3")]),
            Case(name: "certificate not trusted", code: 60, arguments: [tlsServer.url("/small")]),
            Case(name: "declared length over --max-filesize", code: 63, arguments: ["--max-filesize", "1000", server.url("/bytes/5000")]),
            Case(
                name: "chunked body over --max-filesize", code: 63,
                arguments: ["--max-filesize", "1000", server.url("/bytes/5000?framing=chunked")])
        ]
        for check in cases {
            let run = try await runYard(["request"] + check.arguments + ["--transport", transport, "-o", "/dev/null"])
            #expect(run.status == check.code, "\(transport): \(check): \(run.stderr)")
            if check.code == 0 {
                #expect(run.stderr.isEmpty, "\(transport): \(check)")
            } else {
                #expect(run.stderr.hasPrefix("yard: (\(check.code)) "), "\(transport): \(check): \(run.stderr)")
            }
        }
    }

    /// With `-f`, a failing status prints no body, as curl.
    @Test func failPrintsNoBody() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let run = try await runYard(["request", "-f", server.url("/status/503")])
        #expect(run.status == 22)
        #expect(run.stdout.isEmpty)
    }

    /// The help names every exit status.
    @Test func theHelpListsTheExitCodes() async throws {
        let help = try await runYard(["request", "--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
            .split(separator: " ").joined(separator: " ")
        for code in [6, 7, 18, 22, 28, 35, 47, 60, 63, 64] {
            #expect(help.contains("\(code) "), "\(code)")
        }
    }
}
