import ArgumentParser
import Foundation
import Switchyard

/// The TLS flags of `yard request`, named as curl names them.
struct TLSArguments: ParsableArguments {
    @Option(
        name: .customLong("cacert"),
        help: ArgumentHelp(
            "Also trust the CA certificates in this PEM file (besides the system store); repeatable.",
            valueName: "file"))
    var caCertificates: [String] = []

    @Option(
        name: .customLong("pinned-pubkey"),
        help: ArgumentHelp(
            "Accept only a server whose public key has this SHA-256 pin (sha256//BASE64; several separated by ';').",
            valueName: "pins"))
    var pinnedPublicKeys: String?

    @Option(
        name: .customLong("cert"),
        help: ArgumentHelp(
            "Present this PEM client certificate (needs --key).",
            valueName: "file"))
    var certificate: String?

    @Option(name: .customLong("key"), help: ArgumentHelp("The PEM private key of --cert.", valueName: "file"))
    var key: String?

    @Flag(name: .customLong("tlsv1.3"), help: "Require TLS 1.3 (the default minimum is TLS 1.2).")
    var tls13 = false

    @Flag(
        name: [.customShort("k"), .customLong("insecure")],
        help: "Do not verify the server's certificate (development only: anyone on the path can read and change the exchange).")
    var insecure = false

    func validate() throws {
        if (certificate == nil) != (key == nil) { throw ValidationError("--cert and --key go together.") }
        if insecure, pinnedPublicKeys != nil {
            throw ValidationError("--pinned-pubkey cannot be checked with --insecure; drop one of them.")
        }
        _ = try options()
    }

    /// The transport TLS options these flags describe.
    func options() throws -> TLSOptions {
        var options = insecure ? TLSOptions.insecureSkippingVerificationForDevelopmentOnly : TLSOptions()
        if !caCertificates.isEmpty { options.trustRoots = .systemAnd(certificateFiles: caCertificates) }
        if let pinnedPublicKeys {
            options.pinnedPublicKeys = try pinnedPublicKeys.split(separator: ";").map {
                do throws(SwitchyardError) {
                    return try TLSOptions.PublicKeyPin(String($0))
                } catch {
                    throw ValidationError(error.message)
                }
            }
        }
        if let certificate, let key {
            options.clientCertificate = .init(certificateFile: certificate, privateKeyFile: key)
        }
        if tls13 { options.minimumVersion = .v1_3 }
        return options
    }

    /// Warns on standard error when verification is off.
    func warnIfInsecure() {
        guard insecure else { return }
        FileHandle.standardError.write(
            Data(
                ("yard: warning: --insecure: the server's certificate is not verified;"
                    + " anyone on the network path can read and change this exchange. Use --cacert FILE to trust a"
                    + " development CA instead.\n").utf8))
    }
}
