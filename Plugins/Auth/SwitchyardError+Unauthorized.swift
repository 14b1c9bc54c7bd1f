public import SwitchyardCore

extension SwitchyardError.Kind {
    /// The server refused the request's credential and no usable one could be had: refreshing it
    /// failed, or the ``CredentialProvider`` has none (signed out). The user has to sign in again.
    ///
    /// Reported by ``AuthPlugin`` to every request that waited for the failed refresh; the
    /// `SwitchyardError.underlyingError` is the provider's error. Its pop-up text comes from the
    /// client's `PopUpPolicy` (``AuthPlugin/popUpMessages`` has one), and the identical pop-ups of
    /// all those requests are coalesced into one.
    public static let unauthorized = Self(rawValue: "unauthorized")
}

extension SwitchyardError {
    /// The credential was refused and could not be replaced; `detail` says why.
    /// - Parameters:
    ///   - detail: What failed (never a token).
    ///   - underlyingError: The provider's error, if any.
    /// - Returns: An error of kind ``Kind/unauthorized``.
    static func unauthorized(_ detail: String, underlyingError: (any Error)? = nil) -> Self {
        Self(.unauthorized, "\(detail) Sign in again.", underlyingError: underlyingError)
    }
}
