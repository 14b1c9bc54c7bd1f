import Synchronization

/// A department's allowance of request units per window, e.g. 500 units a day for an expensive
/// search backend: each call spends its cost (``SwitchyardCore/RequestOptions/quotaCost``, 1 by
/// default), and a call that would overspend is refused before it is sent.
///
/// ```swift
/// let quota = Quota(units: 500, per: .seconds(86_400))
/// quota.remaining   // 500
/// ```
///
/// The window starts with the first call and restarts once it has passed. One instance is the
/// department's whole allowance: share it between clients to share the allowance.
public final class Quota: Sendable {
    /// How a call's spending went.
    public enum Outcome: Sendable, Hashable {
        /// Spent; this many units are left in the window.
        case spent(remaining: Int)
        /// Refused: not enough units left; the window restarts after this long.
        case refused(remaining: Int, retryAfter: Duration)
    }

    private struct Window {
        var start: ContinuousClock.Instant?
        var used = 0
    }

    /// The units per window.
    public let units: Int
    /// The window's length.
    public let window: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let state = Mutex(Window())

    /// Creates an allowance.
    /// - Parameters:
    ///   - units: The units per window (at least 0).
    ///   - window: The window's length.
    ///   - now: The clock (tests pass their own).
    public init(units: Int, per window: Duration, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.units = max(0, units)
        self.window = window
        self.now = now
    }

    /// The units left in the current window.
    public var remaining: Int {
        let now = now()
        return state.withLock { window in
            guard let start = window.start, start.duration(to: now) < self.window else { return units }
            return units - window.used
        }
    }

    /// Spends `cost` units if that many are left in the current window.
    /// - Parameter cost: The call's cost (negative counts as 0).
    /// - Returns: Whether it was spent, and what is left.
    public func spend(_ cost: Int) -> Outcome {
        let cost = max(0, cost)
        let now = now()
        return state.withLock { current in
            if let start = current.start, start.duration(to: now) >= window { current = Window() }
            let start = current.start ?? now
            current.start = start
            guard current.used + cost <= units else {
                return .refused(remaining: units - current.used, retryAfter: window - start.duration(to: now))
            }
            current.used += cost
            return .spent(remaining: units - current.used)
        }
    }
}
