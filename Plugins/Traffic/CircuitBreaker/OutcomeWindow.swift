import SwitchyardCore

/// The recent successes and failures of one breaker: the last N calls, or the calls of the last
/// period in 10 buckets. Sized once; recording allocates nothing.
struct OutcomeWindow {
    /// Buckets a time window is kept in.
    static let bucketCount = 10

    private struct Bucket {
        var index: Int64 = .min
        var calls = 0
        var failures = 0
    }

    /// The last `ring.count` outcomes (`true` = failure), oldest at `next` once full; or counts
    /// per bucket of `width` nanoseconds.
    private var ring: [Bool] = []
    private var next = 0
    private var buckets: [Bucket] = []
    private var width: Int64 = 1

    /// Calls in the window (for a time window: as of the last record).
    private(set) var calls = 0
    /// Failures in the window (for a time window: as of the last record).
    private(set) var failures = 0

    /// An empty window of this shape.
    init(_ window: CircuitBreakerPolicy.Window) {
        switch window {
        case .calls(let count):
            ring = Array(repeating: false, count: max(1, count))
        case .duration(let duration):
            width = max(1, Self.nanoseconds(duration) / Int64(Self.bucketCount))
            buckets = Array(repeating: Bucket(), count: Self.bucketCount)
        }
    }

    /// Records one call that ended `elapsed` after the breaker's origin, and updates ``calls`` and
    /// ``failures``.
    mutating func record(failed: Bool, elapsed: Duration) {
        if buckets.isEmpty {
            if calls == ring.count {
                if ring[next] { failures -= 1 }
            } else {
                calls += 1
            }
            ring[next] = failed
            if failed { failures += 1 }
            next = (next + 1) % ring.count
            return
        }
        let index = Self.nanoseconds(elapsed) / width
        let slot = Int(index % Int64(Self.bucketCount))
        if buckets[slot].index != index { buckets[slot] = Bucket(index: index) }
        buckets[slot].calls += 1
        if failed { buckets[slot].failures += 1 }
        calls = 0
        failures = 0
        for bucket in buckets where bucket.index > index - Int64(Self.bucketCount) {
            calls += bucket.calls
            failures += bucket.failures
        }
    }

    /// Forgets every call (the window of a breaker that just opened or closed).
    mutating func reset() {
        calls = 0
        failures = 0
        next = 0
        for index in buckets.indices { buckets[index] = Bucket() }
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return max(0, seconds) &* 1_000_000_000 &+ max(0, attoseconds) / 1_000_000_000
    }
}
