import Crypto
import Foundation
import SwiftASN1
import X509

/// Certificates for TLS tests, generated in-process (ECDSA P-256) each time and written as PEM
/// files into a fresh temporary directory: nothing secret is committed, and curl-based stacks get
/// the file paths they need.
///
/// One ``ca`` issues every server certificate; a separate ``clientCA`` issues ``client``, so a
/// server that trusts only the client CA for mutual TLS rejects any other client certificate.
///
/// ```swift
/// let certificates = try TestCertificates.generate()
/// let server = try await LoopbackServer.start(.init(tls: .init(identity: certificates.server)))
/// // trust certificates.ca.certificateFile on the client; server.url("/small") is https://127.0.0.1:PORT/small
/// ```
public struct TestCertificates: Sendable {
    /// One generated certificate with its key, as PEM text and as files.
    public struct Identity: Sendable {
        /// The certificate, PEM.
        public let certificatePEM: String
        /// Its private key, PEM (PKCS #8, unencrypted).
        public let privateKeyPEM: String
        /// The file holding ``certificatePEM``.
        public let certificateFile: String
        /// The file holding ``privateKeyPEM``.
        public let privateKeyFile: String
        /// The public key's pin in curl's form: `sha256//` + base64 of the SHA-256 of its SubjectPublicKeyInfo.
        public let publicKeyPin: String
    }

    /// The directory the PEM files were written to (removed by ``remove()``).
    public let directory: String
    /// The certificate authority that issues every server certificate here.
    public let ca: Identity
    /// Valid now, for `127.0.0.1`, `::1` and `localhost` (IP and DNS subject alternative names).
    public let server: Identity
    /// Like ``server`` but expired yesterday.
    public let expiredServer: Identity
    /// Valid now, but only for `wrong.example.invalid`.
    public let wrongHostServer: Identity
    /// The certificate authority that issues ``client``.
    public let clientCA: Identity
    /// A client certificate (extended key usage `clientAuth`) issued by ``clientCA``.
    public let client: Identity

    /// Generates a fresh set and writes it to a new temporary directory.
    /// - Parameter directory: Where to write; `nil` (the default) creates a new directory under the
    ///   system's temporary directory.
    /// - Returns: The certificates and their files.
    /// - Throws: When generating or writing fails.
    public static func generate(in directory: String? = nil) throws -> TestCertificates {
        let directory = try directory ?? makeTemporaryDirectory()
        let now = Date()
        let day: TimeInterval = 86_400
        let caKey = P256.Signing.PrivateKey()
        let caName = try DistinguishedName { CommonName("Switchyard Test CA") }
        let ca = try Issued(
            subject: caName, key: caKey, isCA: true, names: [], usage: nil,
            validity: (now - day, now + 30 * day), issuer: nil)
        let issuer = (name: caName, key: caKey)
        let loopbackNames: [GeneralName] = [
            .dnsName("localhost"),
            .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
            .ipAddress(ASN1OctetString(contentBytes: ArraySlice([UInt8](repeating: 0, count: 15) + [1])))
        ]
        let server = try Issued(
            subject: DistinguishedName { CommonName("localhost") }, key: P256.Signing.PrivateKey(),
            isCA: false, names: loopbackNames, usage: .serverAuth,
            validity: (now - day, now + 30 * day), issuer: issuer)
        let expired = try Issued(
            subject: DistinguishedName { CommonName("localhost") }, key: P256.Signing.PrivateKey(),
            isCA: false, names: loopbackNames, usage: .serverAuth,
            validity: (now - 10 * day, now - day), issuer: issuer)
        let wrongHost = try Issued(
            subject: DistinguishedName { CommonName("wrong.example.invalid") },
            key: P256.Signing.PrivateKey(), isCA: false,
            names: [.dnsName("wrong.example.invalid")], usage: .serverAuth,
            validity: (now - day, now + 30 * day), issuer: issuer)
        let clientCAKey = P256.Signing.PrivateKey()
        let clientCAName = try DistinguishedName { CommonName("Switchyard Test Client CA") }
        let clientCA = try Issued(
            subject: clientCAName, key: clientCAKey, isCA: true, names: [], usage: nil,
            validity: (now - day, now + 30 * day), issuer: nil)
        let client = try Issued(
            subject: DistinguishedName { CommonName("switchyard-test-client") },
            key: P256.Signing.PrivateKey(), isCA: false, names: [], usage: .clientAuth,
            validity: (now - day, now + 30 * day), issuer: (clientCAName, clientCAKey))
        return TestCertificates(
            directory: directory,
            ca: try ca.write(to: directory, name: "ca"),
            server: try server.write(to: directory, name: "server"),
            expiredServer: try expired.write(to: directory, name: "expired"),
            wrongHostServer: try wrongHost.write(to: directory, name: "wrong-host"),
            clientCA: try clientCA.write(to: directory, name: "client-ca"),
            client: try client.write(to: directory, name: "client")
        )
    }

    /// Deletes ``directory`` and the files in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static func makeTemporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "switchyard-tls-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// A certificate signed in memory, not yet written.
private struct Issued {
    let certificate: Certificate
    let key: P256.Signing.PrivateKey

    init(
        subject: DistinguishedName, key: P256.Signing.PrivateKey, isCA: Bool, names: [GeneralName],
        usage: ExtendedKeyUsage.Usage?, validity: (Date, Date),
        issuer: (name: DistinguishedName, key: P256.Signing.PrivateKey)?
    ) throws {
        let publicKey = Certificate.PublicKey(key.publicKey)
        let issuerKey = issuer?.key ?? key
        let extensions = try Certificate.Extensions {
            Critical(isCA ? BasicConstraints.isCertificateAuthority(maxPathLength: nil) : .notCertificateAuthority)
            Critical(isCA ? KeyUsage(keyCertSign: true, cRLSign: true) : KeyUsage(digitalSignature: true))
            SubjectKeyIdentifier(hash: publicKey)
            AuthorityKeyIdentifier(
                keyIdentifier: SubjectKeyIdentifier(hash: Certificate.PublicKey(issuerKey.publicKey))
                    .keyIdentifier)
            if !names.isEmpty { SubjectAlternativeNames(names) }
            if let usage { try ExtendedKeyUsage([usage]) }
        }
        self.certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: publicKey,
            notValidBefore: validity.0,
            notValidAfter: validity.1,
            issuer: issuer?.name ?? subject,
            subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions,
            issuerPrivateKey: Certificate.PrivateKey(issuerKey)
        )
        self.key = key
    }

    func write(to directory: String, name: String) throws -> TestCertificates.Identity {
        let certificatePEM = try certificate.serializeAsPEM().pemString + "\n"
        let keyPEM = key.pemRepresentation + "\n"
        let certificateFile = directory + "/" + name + ".pem"
        let keyFile = directory + "/" + name + "-key.pem"
        try certificatePEM.write(toFile: certificateFile, atomically: true, encoding: .utf8)
        try keyPEM.write(toFile: keyFile, atomically: true, encoding: .utf8)
        let digest = Crypto.SHA256.hash(data: key.publicKey.derRepresentation)  // the DER SubjectPublicKeyInfo
        return TestCertificates.Identity(
            certificatePEM: certificatePEM, privateKeyPEM: keyPEM,
            certificateFile: certificateFile, privateKeyFile: keyFile,
            publicKeyPin: "sha256//" + Data(digest).base64EncodedString()
        )
    }
}
