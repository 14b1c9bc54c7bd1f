import SwitchyardCore

extension TLSOptions {
    /// A certificate and its private key, both PEM files, presented to a server that asks for one
    /// (mutual TLS).
    public struct ClientCertificate: Sendable, Hashable {
        /// The PEM file with the certificate (optionally followed by its intermediates).
        public var certificateFile: String
        /// The PEM file with the certificate's private key (unencrypted, PKCS #8 or the key type's own form).
        public var privateKeyFile: String

        /// Creates a client certificate from two PEM files.
        /// - Parameters:
        ///   - certificateFile: The certificate's PEM file.
        ///   - privateKeyFile: The private key's PEM file.
        public init(certificateFile: String, privateKeyFile: String) {
            self.certificateFile = certificateFile
            self.privateKeyFile = privateKeyFile
        }
    }
}
