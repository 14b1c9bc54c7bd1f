public import SwitchyardCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension TLSOptions {
    /// One accepted server key: the SHA-256 digest of a certificate's DER-encoded
    /// SubjectPublicKeyInfo, written the way curl's `--pinnedpubkey` takes it (`sha256//BASE64`).
    ///
    /// Compute one from a certificate with
    /// `openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`.
    public struct PublicKeyPin: Sendable, Hashable, CustomStringConvertible {
        /// The 32 digest bytes.
        public let sha256: [UInt8]

        /// Parses curl's form, `sha256//` followed by the base64 of the 32-byte digest.
        /// - Parameter text: e.g. `sha256//5mgUqcVKPGdj5IDMa7UBcoTDnD3BqRTfuLlHG39lfnY=`.
        /// - Throws: ``SwitchyardError/Kind/invalidRequest`` when it is not of that form.
        public init(_ text: String) throws(SwitchyardError) {
            let prefix = "sha256//"
            guard text.hasPrefix(prefix),
                let digest = Data(base64Encoded: String(text.dropFirst(prefix.count))), digest.count == 32
            else {
                throw .invalidRequest(
                    "'\(text)' is not a public key pin: write it as sha256// followed by the"
                        + " base64 of the SHA-256 digest of the certificate's SubjectPublicKeyInfo (44 characters).")
            }
            self.sha256 = Array(digest)
        }

        /// A pin from the 32-byte SHA-256 digest of a DER-encoded SubjectPublicKeyInfo.
        /// - Parameter sha256: The digest.
        /// - Throws: ``SwitchyardError/Kind/invalidRequest`` when it is not 32 bytes long.
        public init(sha256: some Collection<UInt8>) throws(SwitchyardError) {
            guard sha256.count == 32 else {
                throw .invalidRequest("A SHA-256 public key pin has 32 bytes, not \(sha256.count).")
            }
            self.sha256 = Array(sha256)
        }

        /// curl's form: `sha256//BASE64`.
        public var description: String { "sha256//" + Data(sha256).base64EncodedString() }

        /// Several pins in curl's `CURLOPT_PINNEDPUBLICKEY` form, separated by `;`.
        public static func curlList(_ pins: [PublicKeyPin]) -> String {
            pins.map(\.description).joined(separator: ";")
        }
    }
}
