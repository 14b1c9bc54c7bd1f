public import SwitchyardCore

extension SwitchyardError.Kind {
    /// The department's ``Quota`` has too few units left for this call: it was not sent. Not
    /// retried; the message says when the window restarts.
    public static let quotaExceeded = Self(rawValue: "quotaExceeded")
}

extension SwitchyardError {
    /// A call refused by the quota of `department`.
    /// - Parameters:
    ///   - department: The plugin's name.
    ///   - cost: The call's cost.
    ///   - remaining: The units left.
    ///   - retryAfter: When the window restarts.
    /// - Returns: A ``SwitchyardError/Kind/quotaExceeded`` error.
    public static func quotaExceeded(department: String, cost: Int, remaining: Int, retryAfter: Duration) -> Self {
        Self(
            .quotaExceeded,
            "The \(department) quota has \(remaining) units left and this call costs \(cost);"
                + " it was not sent. The quota restarts in \(retryAfter.components.seconds) s.")
    }
}
