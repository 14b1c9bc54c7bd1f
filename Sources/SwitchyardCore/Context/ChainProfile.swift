/// Where one exchange spent its time in each link of the chain: the pipeline's profiler, kept per
/// exchange and read by timing statistics.
///
/// Every crossing of a link boundary (entering a link, or returning from it to its caller) reads
/// the clock once and charges the time since the previous crossing to the link that was running,
/// so each link's own time excludes the links below it without any subtraction of nested totals.
struct ChainProfile {
    /// The links' names by index; the last one is the transport.
    let names: [String]
    /// Own time per link, summed over its runs.
    private var own: [Duration]
    /// The link running since `mark`, or `-1` before the chain starts and after it returns.
    private var active = -1
    private var mark: ContinuousClock.Instant
    /// From the start of the exchange until the transport was first entered.
    private(set) var queued: Duration?
    private let startedAt: ContinuousClock.Instant

    init(names: [String], startedAt: ContinuousClock.Instant) {
        self.names = names
        self.own = Array(repeating: .zero, count: names.count)
        self.mark = startedAt
        self.startedAt = startedAt
    }

    /// Link `index` starts running at `now`.
    mutating func enter(_ index: Int, at now: ContinuousClock.Instant) {
        charge(until: now)
        if index == names.count - 1, queued == nil { queued = startedAt.duration(to: now) }
        active = index
    }

    /// Link `index` returns to its caller (link `index - 1`) at `now`.
    mutating func leave(_ index: Int, at now: ContinuousClock.Instant) {
        charge(until: now)
        active = index - 1
    }

    private mutating func charge(until now: ContinuousClock.Instant) {
        if own.indices.contains(active) { own[active] += mark.duration(to: now) }
        mark = now
    }

    /// The interceptors' own times (not the transport's), by name in chain order; a name that
    /// appears twice is summed; links that took no time are left out.
    func ownTimes() -> [(name: String, duration: Duration)] {
        var times: [(name: String, duration: Duration)] = []
        for index in 0..<(names.count - 1) where own[index] != .zero {
            if let existing = times.firstIndex(where: { $0.name == names[index] }) {
                times[existing].duration += own[index]
            } else {
                times.append((names[index], own[index]))
            }
        }
        return times
    }
}
