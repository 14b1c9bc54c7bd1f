/// A bearer token and the identity it belongs to.
///
/// The token is a secret: ``description`` never shows it, and the plugin sends it only in the
/// `Authorization` header of requests in its scope (which every logging and HAR link redacts).
public struct BearerCredential: Sendable, Hashable, CustomStringConvertible {
    /// The token sent as `Authorization: Bearer <token>`.
    public var token: String
    /// Who the token belongs to (e.g. a user id), or `nil` when unknown. It is not secret: the HTTP
    /// cache partitions stored responses by it (``AuthPlugin/partitionKey``).
    public var identity: String?

    /// Creates a credential.
    /// - Parameters:
    ///   - token: The bearer token.
    ///   - identity: Who the token belongs to, if known.
    public init(token: String, identity: String? = nil) {
        self.token = token
        self.identity = identity
    }

    /// `BearerCredential(identity: …, token: <redacted>)`: the token is never shown.
    public var description: String {
        "BearerCredential(identity: \(identity ?? "nil"), token: <redacted>)"
    }
}
