public import SwitchyardCore

/// The per-request status validation (``SwitchyardCore/RequestOptions/validation``).
public enum StatusValidationOptionKey: RequestOptionKey {
    /// No change: the status-validation link's own ``StatusValidation`` applies.
    public static let defaultValue: StatusValidation? = nil
}

extension RequestOptions {
    /// What the status-validation link accepts for this request only, replacing its own; `nil`
    /// (default) keeps the link's. Without a status-validation link in the chain it changes nothing.
    ///
    /// ```swift
    /// var lookup = try Request(url: "https://api.example.com/users/42")
    /// lookup.options.validation = StatusValidation(accepted: 200..<500)   // a 404 is an answer here
    /// ```
    ///
    /// A layer that judges the status itself sets ``StatusValidation/everyStatus``: event streams
    /// (which need exactly `200`) and WebSocket handshakes (exactly `101`) do, so that a rejected
    /// answer fails with their own error kind, without the link reading the body for its excerpt.
    public var validation: StatusValidation? {
        get { self[StatusValidationOptionKey.self] }
        set { self[StatusValidationOptionKey.self] = newValue }
    }
}

extension StatusValidation {
    /// Accepts every status: for a request whose caller checks the status itself
    /// (``SwitchyardCore/RequestOptions/validation``).
    public static let everyStatus = StatusValidation(accepted: 0..<1000)
}
