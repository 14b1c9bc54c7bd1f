public import SwitchyardCore

/// How many exchanges may be on the wire at once, overall and per host; the rest wait in a queue
/// ordered by `RequestOptions.priority` (first in, first out within one priority).
///
/// ```swift
/// var configuration = ClientConfiguration()
/// let limits = ConcurrencyLimits(maxExchanges: 16, maxExchangesPerHost: 4)
/// configuration.plugins.append(.concurrencyLimit(ConcurrencyLimiter(limits: limits)))
/// ```
///
/// - Each attempt (every retry and redirect hop) takes a slot just before the transport and gives it
///   back when its response body ends, fails or is dropped — a slot covers the whole transfer, not
///   only the head. A retry's back-off holds no slot.
/// - A queued request honours cancellation and its deadline: it leaves the queue with
///   `SwitchyardError.Kind.cancelled` or `SwitchyardError.Kind.timeout` and never reaches the wire.
/// - Time spent queued is part of the exchange's `PipelineTimings.queued` phase.
/// - Hosts are compared by the request's authority (`host:port`), as the transports pool connections.
/// - Keep the limits at or below the transport's own connection pool (64 per host by default on
///   every shipped transport), so that the queue that decides — and its priorities — is this one.
/// - Requests outside ``scope`` pass straight through and are not counted.
public struct ConcurrencyLimits: Sendable, Hashable {
    /// Exchanges in flight at once across all hosts; `nil` for no overall limit.
    public var maxExchanges: Int?
    /// Exchanges in flight at once to one host (authority); `nil` for no per-host limit.
    public var maxExchangesPerHost: Int?
    /// The requests the limits apply to (default: all).
    public var scope: RequestScope

    /// Creates limits; a limit below 1 is raised to 1.
    /// - Parameters:
    ///   - maxExchanges: Exchanges in flight at once overall, or `nil`.
    ///   - maxExchangesPerHost: Exchanges in flight at once per host, or `nil`.
    ///   - scope: The requests the limits apply to.
    public init(maxExchanges: Int? = nil, maxExchangesPerHost: Int? = nil, scope: RequestScope = .all) {
        self.maxExchanges = maxExchanges.map { max(1, $0) }
        self.maxExchangesPerHost = maxExchangesPerHost.map { max(1, $0) }
        self.scope = scope
    }
}
