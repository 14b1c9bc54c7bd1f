import Crypto
public import Foundation
public import HTTPTypes

/// Computes the HMAC-SHA256 signature of a request: the part of the signing plugin that does not
/// depend on the chain, so servers (and tests) can verify signatures with the same code.
///
/// The string to sign is four lines joined by `\n`:
/// ```
/// POST
/// /payments/42?currency=EUR
/// 1795612345
/// 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
/// ```
/// — the method, the path with query as sent, the Unix timestamp (seconds) also sent in
/// ``timestampHeader``, and the lower-case hex SHA-256 of the body (of no bytes when there is none),
/// also sent in ``bodyHashHeader``. The signature is base64 HMAC-SHA256 of that string with the key.
public struct RequestSigner: Sendable {
    /// `X-Signature-Timestamp`: the Unix time (seconds) the request was signed.
    public static let timestampHeader = HTTPField.Name("X-Signature-Timestamp")!
    /// `X-Content-SHA256`: the hex SHA-256 of the body that was signed.
    public static let bodyHashHeader = HTTPField.Name("X-Content-SHA256")!
    /// `X-Signature`: `keyId=…, algorithm=hmac-sha256, signature=…`.
    public static let signatureHeader = HTTPField.Name("X-Signature")!

    /// Identifies the key to the server.
    public let keyID: String
    /// The secret's bytes (a `SymmetricKey` is made per signature: it is not `Sendable`).
    private let secret: [UInt8]

    /// Creates a signer.
    /// - Parameters:
    ///   - keyID: Identifies the key to the server (sent in the clear).
    ///   - secret: The shared secret (never sent, never logged).
    public init(keyID: String, secret: some ContiguousBytes) {
        self.keyID = keyID
        self.secret = secret.withUnsafeBytes { Array($0) }
    }

    /// The lower-case hex SHA-256 of `body`.
    /// - Parameter body: The bytes.
    /// - Returns: 64 hex digits.
    public static func bodyHash(_ body: some Sequence<UInt8>) -> String {
        var hasher = SHA256()
        hasher.update(data: Array(body))
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// The string to sign (see the type's documentation).
    /// - Parameters:
    ///   - method: The method, e.g. `"POST"`.
    ///   - pathAndQuery: The path with query, as sent.
    ///   - timestamp: Unix seconds.
    ///   - bodyHash: The hex SHA-256 of the body.
    /// - Returns: The four lines joined by `\n`.
    public static func stringToSign(method: String, pathAndQuery: String, timestamp: Int64, bodyHash: String) -> String {
        [method, pathAndQuery, String(timestamp), bodyHash].joined(separator: "\n")
    }

    /// The base64 HMAC-SHA256 signature of a string to sign.
    /// - Parameter stringToSign: From ``stringToSign(method:pathAndQuery:timestamp:bodyHash:)``.
    /// - Returns: The base64 signature.
    public func signature(of stringToSign: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Array(stringToSign.utf8), using: SymmetricKey(data: secret))
        return Data(code).base64EncodedString()
    }

    /// The value of ``signatureHeader`` for a signature.
    /// - Parameter signature: From ``signature(of:)``.
    /// - Returns: `keyId=…, algorithm=hmac-sha256, signature=…`.
    public func signatureHeaderValue(_ signature: String) -> String {
        "keyId=\(keyID), algorithm=hmac-sha256, signature=\(signature)"
    }
}
