import NIOSSL

extension LoopbackServer {
    /// The HTTPS mode of a ``LoopbackServer``: a `NIOSSLServerHandler` in front of the same HTTP/1.1
    /// pipeline, so every route works over TLS too.
    ///
    /// ```swift
    /// let certificates = try TestCertificates.generate()
    /// let server = try await LoopbackServer.start(.init(tls: .init(identity: certificates.server)))
    /// server.url("/small")   // "https://127.0.0.1:54321/small"
    /// ```
    public struct TLS: Sendable {
        /// The server's certificate (PEM file, optionally followed by intermediates).
        public var certificateFile: String
        /// The certificate's private key (PEM file).
        public var privateKeyFile: String
        /// Mutual TLS: when set, every client must present a certificate issued by the CA in this PEM
        /// file, or the handshake fails before any request is read.
        public var clientCertificateAuthorityFile: String?
        /// The protocols offered by ALPN, most preferred first: `http/1.1` (the default) and `h2`, which serves
        /// every route over HTTP/2 (each stream handled like an HTTP/1.1 request), e.g. `["h2", "http/1.1"]`.
        public var applicationProtocols: [String]
        /// The newest TLS version the server speaks (lower it to test a client's minimum version).
        public var maximumVersion: MaximumVersion

        /// The newest TLS version a server speaks, for ``maximumVersion``.
        public enum MaximumVersion: Sendable, Hashable {
            /// TLS 1.1 (obsolete: clients with a minimum of TLS 1.2 refuse it).
            case tls11
            /// TLS 1.2.
            case tls12
            /// TLS 1.3 (the default).
            case tls13
        }

        /// Creates an HTTPS mode from PEM files.
        /// - Parameters:
        ///   - certificateFile: The server certificate's PEM file.
        ///   - privateKeyFile: Its private key's PEM file.
        ///   - clientCertificateAuthorityFile: The CA clients' certificates must come from (`nil`: none asked for).
        ///   - applicationProtocols: The ALPN protocols offered.
        ///   - maximumVersion: The newest TLS version spoken.
        public init(
            certificateFile: String, privateKeyFile: String, clientCertificateAuthorityFile: String? = nil,
            applicationProtocols: [String] = ["http/1.1"], maximumVersion: MaximumVersion = .tls13
        ) {
            self.certificateFile = certificateFile
            self.privateKeyFile = privateKeyFile
            self.clientCertificateAuthorityFile = clientCertificateAuthorityFile
            self.applicationProtocols = applicationProtocols
            self.maximumVersion = maximumVersion
        }

        /// Creates an HTTPS mode serving a generated identity, e.g. `certificates.server`.
        /// - Parameters:
        ///   - identity: The server certificate and key.
        ///   - clientCertificateAuthority: The CA clients' certificates must come from (`nil`: none asked for).
        ///   - applicationProtocols: The ALPN protocols offered, e.g. `["h2", "http/1.1"]` for HTTP/2.
        ///   - maximumVersion: The newest TLS version spoken.
        public init(
            identity: TestCertificates.Identity, clientCertificateAuthority: TestCertificates.Identity? = nil,
            applicationProtocols: [String] = ["http/1.1"], maximumVersion: MaximumVersion = .tls13
        ) {
            self.init(
                certificateFile: identity.certificateFile, privateKeyFile: identity.privateKeyFile,
                clientCertificateAuthorityFile: clientCertificateAuthority?.certificateFile,
                applicationProtocols: applicationProtocols, maximumVersion: maximumVersion)
        }

        /// The SwiftNIO SSL context these settings describe.
        func makeContext() throws -> NIOSSLContext {
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMFile(certificateFile).map { .certificate($0) },
                privateKey: .privateKey(try NIOSSLPrivateKey(file: privateKeyFile, format: .pem))
            )
            configuration.applicationProtocols = applicationProtocols
            switch maximumVersion {
            case .tls11:
                configuration.minimumTLSVersion = .tlsv1
                configuration.maximumTLSVersion = .tlsv11
            case .tls12: configuration.maximumTLSVersion = .tlsv12
            case .tls13: break
            }
            if let clientCertificateAuthorityFile {
                configuration.certificateVerification = .noHostnameVerification
                configuration.trustRoots = .file(clientCertificateAuthorityFile)
            }
            return try NIOSSLContext(configuration: configuration)
        }
    }
}
