public import SwitchyardCore

/// Published (`ExchangeEvent.Kind.plugin(_:)`) by an exchange whose `429 Too Many Requests` or
/// `503 Service Unavailable` answer, with a `Retry-After` field, held its rate-limit bucket: the
/// requests behind it wait for ``duration`` (see ``RateLimits/maxRetryAfterHold``).
public struct RateLimitHeld: PluginEvent, Hashable {
    /// `rateLimitHeld`.
    public var name: String { "rateLimitHeld" }
    /// The host and port that answered (its bucket, or the shared one, is held).
    public let host: String
    /// How long the bucket is held: the `Retry-After` asked for, at most
    /// ``RateLimits/maxRetryAfterHold``.
    public let duration: Duration
    /// `HOST for N ms`.
    public var detail: String {
        let (seconds, attoseconds) = duration.components
        return "\(host) for \(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
    }

    /// Creates the event.
    /// - Parameters:
    ///   - host: The host and port that answered.
    ///   - duration: How long the bucket is held.
    public init(host: String, duration: Duration) {
        self.host = host
        self.duration = duration
    }
}
