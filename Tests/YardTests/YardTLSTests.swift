import Foundation
import SwitchyardTestServer
import Testing

@Suite(.timeLimit(.minutes(2))) struct YardTLSTests {
    @Test(arguments: ["curl", "ahc"])
    func cacertTrustsTheServersCA(transport: String) async throws {
        let certificates = try TestCertificates.generate()
        defer { certificates.remove() }
        let server = try await LoopbackServer.start(.init(tls: .init(identity: certificates.server)))
        defer { Task { try? await server.shutdown() } }

        let untrusted = try await runYard(["request", server.url("/small"), "-o", "/dev/null", "-w", "%{json}", "--transport", transport])
        #expect(untrusted.status == 60)  // curl's CURLE_PEER_FAILED_VERIFICATION
        let error = try #require(try jsonObject(untrusted.stdout)["error"] as? [String: Any])
        #expect(error["kind"] as? String == "tls")
        #expect((error["message"] as? String)?.contains("--cacert") == true)

        let trusted = try await runYard([
            "request", server.url("/small"), "-o", "/dev/null", "-w", "%{json}", "--transport", transport,
            "--cacert", certificates.ca.certificateFile,
            "--pinned-pubkey", certificates.server.publicKeyPin
        ])
        #expect(trusted.status == 0, "\(trusted.stdout) \(trusted.stderr)")
        #expect(try jsonObject(trusted.stdout)["status"] as? Int == 200)
        #expect(!trusted.stderr.contains("warning"))
    }

    @Test func insecureSkipsVerificationAndWarns() async throws {
        let certificates = try TestCertificates.generate()
        defer { certificates.remove() }
        let server = try await LoopbackServer.start(.init(tls: .init(identity: certificates.wrongHostServer)))
        defer { Task { try? await server.shutdown() } }
        let run = try await runYard(["request", server.url("/small"), "-o", "/dev/null", "-w", "%{json}", "--insecure"])
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        #expect(try jsonObject(run.stdout)["status"] as? Int == 200)
        #expect(run.stderr.contains("warning: --insecure"))
    }

    @Test func clientCertificateFlagsPresentACertificate() async throws {
        let certificates = try TestCertificates.generate()
        defer { certificates.remove() }
        let server = try await LoopbackServer.start(
            .init(
                tls: .init(
                    identity: certificates.server,
                    clientCertificateAuthority: certificates.clientCA)))
        defer { Task { try? await server.shutdown() } }
        let run = try await runYard([
            "request", server.url("/small"), "-o", "/dev/null", "-w", "%{json}", "--cacert", certificates.ca.certificateFile,
            "--cert", certificates.client.certificateFile,
            "--key", certificates.client.privateKeyFile
        ])
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        #expect(try jsonObject(run.stdout)["status"] as? Int == 200)
    }

    @Test func insecureWithAPinIsAUsageError() async throws {
        let run = try await runYard([
            "request", "https://127.0.0.1:1/", "--insecure",
            "--pinned-pubkey", "sha256//" + String(repeating: "A", count: 43) + "="
        ])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--pinned-pubkey"))
    }
}
