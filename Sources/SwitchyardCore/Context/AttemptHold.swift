/// Something that holds a call's next attempt until it lifts, so a link that sends the request
/// again waits for it instead of spending attempts into it: a link above that one puts the hold in
/// the exchange's context (``ExchangeContext/attemptHold``), and after a failed attempt, while the
/// hold ``isHolding``, the resending link waits for it to lift (within its own bound and the
/// deadline).
///
/// A plugin that knows the network is offline holds attempts until it is back; one of your own
/// can hold them while, say, a maintenance window lasts.
public protocol AttemptHold: Sendable {
    /// Whether the next attempt should wait now (read once per failed attempt).
    var isHolding: Bool { get }
    /// The event published when an attempt starts waiting, if any.
    var waitingEvent: (any PluginEvent)? { get }
    /// Waits until the hold lifts, `deadline` passes, or the task is cancelled.
    /// - Parameter deadline: The latest instant to wait until.
    /// - Returns: How the wait ended.
    func waitUntilLifted(deadline: ContinuousClock.Instant) async -> AttemptHoldOutcome
}

/// How a wait on an ``AttemptHold`` ended.
public enum AttemptHoldOutcome: Sendable, Hashable {
    /// The hold lifted: send the next attempt now.
    case lifted
    /// The bound passed first: the last failure stands.
    case deadlinePassed
    /// The task was cancelled.
    case cancelled
}

/// Where an exchange keeps its ``AttemptHold``.
enum AttemptHoldKey: ExchangeContextKey {
    typealias Value = any AttemptHold
}

extension ExchangeContext {
    /// What holds this exchange's next attempt, if anything: set by a link above the links that
    /// send the request again, read by them after a failed attempt.
    public var attemptHold: (any AttemptHold)? {
        get { self[AttemptHoldKey.self] }
        set { self[AttemptHoldKey.self] = newValue }
    }
}
