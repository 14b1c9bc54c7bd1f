import SwitchyardCore

/// Limits retries to a fraction of recent requests, so that a total outage does not multiply
/// the load on a struggling server.
///
/// Over a sliding ``window``, retries may not exceed `ratio × requests + minRetriesPerSecond ×
/// window-seconds`. With the defaults (20 %, 1 per second, 10 s) a client sending 100 requests
/// into a dead server makes at most 20 + 10 retries in that window, instead of 100 × (attempts − 1).
/// The small per-second minimum lets a client that sends few requests still retry them.
///
/// One budget is shared by every request through the ``RetryInterceptor`` that owns it (and by
/// every copy of that interceptor); pass the same instance to several interceptors to share it
/// further. It is thread-safe.
///
/// A retry it refuses is not silent: the call's error says so in its message (keeping its kind),
/// and ``RetryBudgetRefused`` is published. <doc:RetriesAndTheRetryBudget> shows how to size it.
///
/// ```swift
/// let budget = RetryBudget(ratio: 0.1, minRetriesPerSecond: 0.5, window: .seconds(30))
/// let retry = RetryInterceptor(policy: RetryPolicy(), budget: budget)
/// ```
public final class RetryBudget: Sendable {
    /// The default fraction of requests that may be retried: 20 %.
    public static let defaultRatio = 0.2
    /// The default retries always allowed per second of the window: 1.
    public static let defaultMinRetriesPerSecond = 1.0
    /// The default length of the sliding window: 10 s.
    public static let defaultWindow: Duration = .seconds(10)

    /// Retries allowed per request sent.
    public let ratio: Double
    /// Retries allowed per second of the window regardless of traffic.
    public let minRetriesPerSecond: Double
    /// How far back requests and retries are counted.
    public let window: Duration

    /// The window is kept as this many buckets; counts leave the window one bucket at a time.
    private static let bucketCount = 10

    private struct Bucket {
        var index: Int64 = -1
        var requests = 0
        var retries = 0
    }

    private let bucketWidth: Double
    private let origin: ContinuousClock.Instant
    private let now: @Sendable () -> ContinuousClock.Instant
    private let buckets = Lock([Bucket](repeating: Bucket(), count: RetryBudget.bucketCount))

    /// Creates a budget.
    /// - Parameters:
    ///   - ratio: Retries allowed per request sent (0.2 = 20 %); negative values count as 0.
    ///   - minRetriesPerSecond: Retries always allowed per second of the window.
    ///   - window: How far back requests and retries are counted (at least 1 ms).
    ///   - now: The clock; inject one in tests to move time by hand.
    public init(
        ratio: Double = RetryBudget.defaultRatio,
        minRetriesPerSecond: Double = RetryBudget.defaultMinRetriesPerSecond,
        window: Duration = RetryBudget.defaultWindow,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.ratio = ratio.isFinite ? max(0, ratio) : 0
        self.minRetriesPerSecond = minRetriesPerSecond.isFinite ? max(0, minRetriesPerSecond) : 0
        self.window = max(window, .milliseconds(1))
        self.bucketWidth = self.window.milliseconds / Double(Self.bucketCount)
        self.now = now
        self.origin = now()
    }

    /// Counts one request (a first attempt) into the window.
    public func recordRequest() {
        let index = currentIndex()
        buckets.withLock { buckets in Self.bucket(index, in: &buckets) { $0.requests += 1 } }
    }

    /// Takes one retry from the budget if the window allows it.
    /// - Returns: `true` if the retry may go ahead (and is now counted), `false` if the budget is spent.
    public func consumeRetry() -> Bool {
        let index = currentIndex()
        return buckets.withLock { buckets in
            guard Double(Self.totals(at: index, in: buckets).retries + 1) <= allowance(buckets, at: index) else {
                return false
            }
            Self.bucket(index, in: &buckets) { $0.retries += 1 }
            return true
        }
    }

    /// The retries the window allows right now.
    public var availableRetries: Int {
        let index = currentIndex()
        return buckets.withLock { buckets in
            max(0, Int(allowance(buckets, at: index)) - Self.totals(at: index, in: buckets).retries)
        }
    }

    private func allowance(_ buckets: [Bucket], at index: Int64) -> Double {
        ratio * Double(Self.totals(at: index, in: buckets).requests) + minRetriesPerSecond * window.milliseconds / 1_000
    }

    private func currentIndex() -> Int64 {
        Int64(origin.duration(to: now()).milliseconds / bucketWidth)
    }

    private static func totals(at index: Int64, in buckets: [Bucket]) -> (requests: Int, retries: Int) {
        buckets.reduce(into: (0, 0)) { sum, bucket in
            guard bucket.index > index - Int64(bucketCount), bucket.index <= index else { return }
            sum.0 += bucket.requests
            sum.1 += bucket.retries
        }
    }

    private static func bucket(_ index: Int64, in buckets: inout [Bucket], _ update: (inout Bucket) -> Void) {
        let slot = Int(index % Int64(bucketCount))
        if buckets[slot].index != index { buckets[slot] = Bucket(index: index) }
        update(&buckets[slot])
    }
}
