public import SwitchyardCore

/// Published (`ExchangeEvent.Kind.plugin(_:)`) by the retry link when an attempt failed and another
/// follows after ``delay``.
///
/// ```swift
/// bus.addObserver { event in
///     if let retrying = event.plugin(Retrying.self) { print("attempt \(retrying.attempt) failed: \(retrying.reason)") }
/// }
/// ```
public struct Retrying: PluginEvent, Hashable {
    /// `retrying`.
    public var name: String { "retrying" }
    /// The attempt that failed (1-based); attempt `attempt + 1` follows.
    public let attempt: Int
    /// How long the link waits before the next attempt.
    public let delay: Duration
    /// Why, e.g. `HTTP 503` or `connection failed`.
    public let reason: String

    /// Creates the event.
    /// - Parameters:
    ///   - attempt: The attempt that failed.
    ///   - delay: The wait before the next attempt.
    ///   - reason: Why the attempt is retried.
    public init(attempt: Int, delay: Duration, reason: String) {
        self.attempt = attempt
        self.delay = delay
        self.reason = reason
    }

    /// E.g. `attempt 1 failed (HTTP 503); next in 87 ms`.
    public var detail: String {
        "attempt \(attempt) failed (\(reason)); next in \(Int(delay.milliseconds)) ms"
    }
}
