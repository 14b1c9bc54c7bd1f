import Foundation
import SwitchyardTestServer
import Testing

@Suite(.timeLimit(.minutes(2))) struct YardHTTP2Tests {
    /// Against a server offering `h2` and `http/1.1`: HTTP/2 by default (and with `--http2`), HTTP/1.1 with
    /// `--http1.1`, each reported as `http_version`.
    @Test(arguments: ["curl", "ahc"])
    func httpVersionFlagsAndField(transport: String) async throws {
        let certificates = try TestCertificates.generate()
        defer { certificates.remove() }
        let tls = LoopbackServer.TLS(identity: certificates.server, applicationProtocols: ["h2", "http/1.1"])
        let server = try await LoopbackServer.start(.init(tls: tls))
        defer { Task { try? await server.shutdown() } }
        let common = [
            "request", server.url("/small"), "-o", "/dev/null", "-w", "%{json}", "--transport", transport,
            "--cacert", certificates.ca.certificateFile
        ]
        for (flags, expected) in [([String](), "2"), (["--http2"], "2"), (["--http1.1"], "1.1")] {
            let run = try await runYard(common + flags)
            #expect(run.status == 0, "\(flags) \(run.stdout) \(run.stderr)")
            let json = try jsonObject(run.stdout)
            #expect(json["status"] as? Int == 200)
            #expect(json["http_version"] as? String == expected, "\(flags)")
        }
        #expect(server.negotiatedProtocols == ["h2", "h2", "http/1.1"])
    }

    /// A server answering `HTTP/1.0` is reported as `"1.0"` (URLSession cannot tell: `null`).
    @Test(arguments: ["curl", "ahc"])
    func anHTTP10ResponseIsReportedAs10(transport: String) async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let run = try await runYard([
            "request", server.url("/http10?bytes=100"), "-o", "/dev/null", "-w", "%{json}", "--transport", transport
        ])
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        let json = try jsonObject(run.stdout)
        #expect(json["body_bytes"] as? Int == 100)
        #expect(json["http_version"] as? String == "1.0")
    }

    @Test func bothPreferencesAreAUsageError() async throws {
        let run = try await runYard(["request", "https://127.0.0.1:1/", "--http1.1", "--http2"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--http1.1"))
    }
}
