import SwitchyardCore

/// How long to wait before each retry: exponential growth with a cap, and full jitter.
///
/// Retry `n` (1 for the first retry) waits a random duration in `0 ..< min(cap, base × multiplierⁿ⁻¹)`.
/// "Full jitter" spreads the retries of many clients that failed at the same moment over the
/// whole interval, so they do not come back in lock-step and knock the server over again.
///
/// ```swift
/// let backoff = RetryBackoff(base: .milliseconds(200), multiplier: 2, cap: .seconds(5))
/// backoff.ceiling(forRetry: 3)   // 800 ms
/// backoff.delay(forRetry: 3)     // somewhere in 0 ..< 800 ms
///
/// // Deterministic in tests: always the upper half of the interval.
/// let fixed = RetryBackoff(random: { 0.5 })
/// ```
public struct RetryBackoff: Sendable {
    /// The ceiling of the first retry's wait. Default 100 ms.
    public static let defaultBase: Duration = .milliseconds(100)
    /// The factor by which the ceiling grows per retry. Default 2.
    public static let defaultMultiplier = 2.0
    /// The largest ceiling, however many retries came before. Default 10 s.
    public static let defaultCap: Duration = .seconds(10)

    /// The ceiling of the first retry's wait.
    public var base: Duration
    /// The factor by which the ceiling grows per retry (values below 1 are treated as 1).
    public var multiplier: Double
    /// The largest ceiling.
    public var cap: Duration
    /// A source of uniformly distributed numbers in `0 ..< 1`; inject a fixed one in tests.
    /// Values outside that range are clamped into it.
    public var random: @Sendable () -> Double

    /// Creates a back-off schedule.
    /// - Parameters:
    ///   - base: The ceiling of the first retry's wait.
    ///   - multiplier: The growth factor per retry.
    ///   - cap: The largest ceiling.
    ///   - random: Uniform numbers in `0 ..< 1` (the system generator by default).
    public init(
        base: Duration = RetryBackoff.defaultBase,
        multiplier: Double = RetryBackoff.defaultMultiplier,
        cap: Duration = RetryBackoff.defaultCap,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.base = base
        self.multiplier = multiplier
        self.cap = cap
        self.random = random
    }

    /// The upper bound of the wait before retry `retry`: `min(cap, base × multiplier^(retry − 1))`.
    /// - Parameter retry: 1 for the first retry (the second attempt), 2 for the next, …
    /// - Returns: The ceiling, never negative.
    public func ceiling(forRetry retry: Int) -> Duration {
        let capMilliseconds = max(0, cap.milliseconds)
        var milliseconds = min(max(0, base.milliseconds), capMilliseconds)
        let factor = multiplier.isFinite ? max(1, multiplier) : 1
        var step = 1
        while step < retry, milliseconds < capMilliseconds {
            milliseconds = min(milliseconds * factor, capMilliseconds)
            step += 1
        }
        return .milliseconds(milliseconds)
    }

    /// A random wait in `0 ..< ceiling(forRetry: retry)` (full jitter).
    /// - Parameter retry: 1 for the first retry.
    /// - Returns: The wait.
    public func delay(forRetry retry: Int) -> Duration {
        let draw = random()
        let unit = draw.isFinite ? min(max(draw, 0), 1) : 0
        return .milliseconds(ceiling(forRetry: retry).milliseconds * unit)
    }
}
