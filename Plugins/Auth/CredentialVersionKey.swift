public import SwitchyardCore

/// The version of the credential a request was last sent with, in its `ExchangeContext`.
///
/// Versions start at 1 and grow by one with each new credential (a refresh, or a new credential from
/// the provider). A request that was replayed after a `401` records the version it was replayed with.
///
/// ```swift
/// let response = try await client.send(request)
/// let version = response.context[CredentialVersionKey.self]   // e.g. 2 after one refresh
/// ```
public enum CredentialVersionKey: ExchangeContextKey {
    /// The version number.
    public typealias Value = UInt64
}
