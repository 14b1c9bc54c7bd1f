public import SwitchyardCore

/// Something a retry waits for instead of spending attempts: a link above the retry link puts one
/// in the exchange's context (``RetryHoldKey``), and after a failed attempt, while the hold is
/// ``isHolding``, the retry link waits for it to lift (bounded by
/// ``RetryPolicy/maxConnectivityWait`` and the deadline) rather than backing off into it.
///
/// The connectivity plugin (`SwitchyardTraffic`) holds retries while the network is offline; a
/// plugin of your own can hold them while, say, a quota is exhausted.
public protocol RetryHold: Sendable {
    /// Whether a retry should wait now (read once per failed attempt).
    var isHolding: Bool { get }
    /// The event published when a retry starts waiting, if any.
    var waitingEvent: (any PluginEvent)? { get }
    /// Waits until the hold lifts, `deadline` passes, or the task is cancelled.
    /// - Parameter deadline: The latest instant to wait until.
    /// - Returns: How the wait ended.
    func waitUntilLifted(deadline: ContinuousClock.Instant) async -> RetryHoldOutcome
}

/// How a wait on a ``RetryHold`` ended.
public enum RetryHoldOutcome: Sendable, Hashable {
    /// The hold lifted: retry now.
    case lifted
    /// The bound passed first: the last failure stands.
    case deadlinePassed
    /// The task was cancelled.
    case cancelled
}

/// The ``RetryHold`` of an exchange, set in its context by a link above the retry link.
public enum RetryHoldKey: ExchangeContextKey {
    /// The hold.
    public typealias Value = any RetryHold
}
