public import SwitchyardCore

extension SwitchyardError.Kind {
    /// A ``CachePolicy/cacheOnly`` request found nothing usable in the cache; nothing was sent.
    public static let cacheMiss = Self(rawValue: "cacheMiss")
}

extension SwitchyardError {
    /// A cache-only request missed.
    /// - Parameter detail: What was asked for.
    /// - Returns: The error.
    static func cacheMiss(_ detail: String) -> Self {
        SwitchyardError(
            .cacheMiss, "Nothing usable is cached for \(detail), and the request is cache-only; nothing was sent.")
    }
}
