import SwitchyardCore

/// How many exchanges are under way: the classic network-activity indicator.
public struct TrafficActivity: Sendable, Hashable, CustomStringConvertible {
    /// Exchanges started and not yet ended (queued ones included), body streaming included.
    public var inFlight: Int
    /// Of those, the ones waiting in a ``ConcurrencyLimits`` queue.
    public var queued: Int

    /// Creates a snapshot.
    /// - Parameters:
    ///   - inFlight: Exchanges under way.
    ///   - queued: Exchanges of those waiting for a slot.
    public init(inFlight: Int, queued: Int) {
        self.inFlight = inFlight
        self.queued = queued
    }

    /// Whether anything is under way (show the spinner).
    public var isActive: Bool { inFlight > 0 }

    /// E.g. `3 in flight (1 queued)`.
    public var description: String { "\(inFlight) in flight (\(queued) queued)" }
}
