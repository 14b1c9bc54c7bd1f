import ArgumentParser
import Foundation
import SwitchyardTestServer

/// `yard serve`: the embedded loopback server, for trying things by hand.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the embedded loopback test server until interrupted.",
        discussion: "Routes (any method; HEAD answers like GET without a body):\n\n" + LoopbackServer.routeCatalogText
    )

    @Option(name: .long, help: "The port to listen on (0 picks a free one).")
    var port: Int = 0

    @Option(name: .long, help: "Event-loop threads of the server.")
    var threads: Int = 1

    @Flag(name: .long, help: "Serve HTTPS with a certificate from a CA generated now (its PEM file's path is printed).")
    var tls = false

    @Flag(
        name: .customLong("require-client-cert"),
        help: "With --tls: require a client certificate from a generated client CA (mutual TLS).")
    var requiresClientCertificate = false

    @Option(help: "Fault-injection mode: \(FaultPlan.specSyntax); e.g. reset=0.01,stall=0.005,truncate=0.01,malformed=0.005,burst=0.01.")
    var faults: String?

    @Option(name: .customLong("fault-seed"), help: "With --faults: the seed of the fault decisions (the same seed repeats a run).")
    var faultSeed: UInt64 = 1

    func validate() throws {
        if requiresClientCertificate, !tls { throw ValidationError("--require-client-cert needs --tls.") }
        if faults != nil { _ = try faultPlan() }
    }

    /// The plan of `--faults`, or `nil`.
    private func faultPlan() throws -> FaultPlan? {
        guard let faults else { return nil }
        do {
            return try FaultPlan(spec: faults, seed: faultSeed)
        } catch {
            throw ValidationError("--faults: \(error.description)")
        }
    }

    func run() async throws {
        var configuration = LoopbackServer.Configuration(port: port, threads: threads, faults: try faultPlan())
        var certificates: TestCertificates?
        if tls {
            let generated = try TestCertificates.generate()
            certificates = generated
            configuration.tls = .init(
                identity: generated.server,
                clientCertificateAuthority: requiresClientCertificate ? generated.clientCA : nil)
        }
        let server = try await LoopbackServer.start(configuration)
        defer { certificates?.remove() }
        print("serving on \(server.baseURL)  (try \(server.url("/small")), /echo, /bytes/1048576, /status/503)")
        if let certificates {
            print("CA certificate: \(certificates.ca.certificateFile)  (yard request --cacert FILE, curl --cacert FILE)")
            print("server key pin: \(certificates.server.publicKeyPin)")
            if requiresClientCertificate {
                print("client certificate: \(certificates.client.certificateFile)  key: \(certificates.client.privateKeyFile)")
            }
        }
        if let plan = server.faultPlan {
            print("injecting faults: \(plan)  (every route; /soak/{id}?size=N has digest-checked bodies)")
        }
        print("press Ctrl-C to stop")
        fflush(nil)  // a script reading the CA path from a pipe needs it now, not at exit
        while !Task.isCancelled {
            try await Task.sleep(for: .seconds(3600))
        }
    }
}
