/// Supplies the bearer credentials of an ``AuthPlugin``: the app's sign-in state.
///
/// ```swift
/// actor Session: CredentialProvider {
///     private var credential = BearerCredential(token: "t1", identity: "user-42")
///     private let refreshToken = "r1"
///
///     func current() async throws -> BearerCredential { credential }
///
///     func refresh(stale: BearerCredential) async throws -> BearerCredential {
///         credential = try await authServer.exchange(refreshToken)   // your token endpoint
///         return credential
///     }
/// }
/// ```
///
/// The plugin calls ``current()`` once for every request it signs, and ``refresh(stale:)`` at most
/// once at a time, whatever the number of requests the server refuses meanwhile.
public protocol CredentialProvider: Sendable {
    /// The credential to sign a request with now.
    ///
    /// Called once per request, so keep it cheap (return a stored value). After ``refresh(stale:)``
    /// returns, it must return the refreshed credential (or a newer one).
    /// - Returns: The current credential.
    /// - Throws: When there is none (signed out); the request then fails with
    ///   `SwitchyardError.Kind.unauthorized`.
    func current() async throws -> BearerCredential

    /// Replaces a credential the server refused (answered `401 Unauthorized`).
    ///
    /// Never called concurrently by one plugin: all requests refused meanwhile wait for this one
    /// call and are then replayed with its result. It is not cancelled when a waiting request is.
    /// - Parameter stale: The credential the server refused.
    /// - Returns: The new credential.
    /// - Throws: When no new credential can be had (e.g. the refresh token expired): every waiting
    ///   request fails with `SwitchyardError.Kind.unauthorized`.
    func refresh(stale: BearerCredential) async throws -> BearerCredential
}
