import HTTPTypes
import Histogram
import SwitchyardCore

/// Collects the timings of every call per endpoint — method, host and path template — into
/// histograms: count, errors and p50/p90/p99/max of each transport phase and pipeline stage.
///
/// ```swift
/// let stats = TimingStats()
/// stats.register(template: "/users/{id}")
/// var configuration = ClientConfiguration()
/// configuration.plugins.append(.timingStats(stats))
/// let client = try Client(transport: CurlTransport(), configuration: configuration)
/// // … later
/// print(stats.snapshot().table)
/// ```
///
/// Paths that match no registered template are normalised (numeric, UUID-like and long hex
/// segments become `{id}`, the query is dropped), and at most ``maxEndpoints`` endpoints are kept
/// (later ones count under the path `other`), so memory stays bounded whatever the traffic.
public final class TimingStats: Sendable {
    /// A request tag starting with this names the endpoint the call counts under instead of its path's
    /// template (`RequestOptions.endpointTemplateTagPrefix`): `template:getGreeting` or
    /// `template:/users/{id}`.
    public static let templateTagPrefix = RequestOptions.endpointTemplateTagPrefix

    /// Endpoints tracked before new ones are folded into `other`.
    public let maxEndpoints: Int

    struct Key: Hashable, Sendable {
        var method: String
        var host: String
        var path: String
    }

    /// One endpoint's figures. Phases are kept in two parallel arrays, in the order they first
    /// appeared: every call of a chain lists its phases in the same order, so the `hint` (the
    /// phase's position in the call's list) finds its histogram with one comparison, without hashing.
    private struct Aggregate: Sendable {
        var count = 0
        var errors = 0
        var coalesced = 0
        var phaseNames: [String] = []
        var histograms: [Histogram<UInt64>] = []

        mutating func record(_ microseconds: UInt64, phase name: String, hint: Int) {
            let index =
                phaseNames.index(of: name, hint: hint)
                ?? {
                    phaseNames.append(name)
                    histograms.append(TimingStats.emptyHistogram)
                    return phaseNames.count - 1
                }()
            _ = histograms[index].record(microseconds)
        }

        /// The histogram of `name`, if it was recorded.
        func histogram(_ name: String) -> Histogram<UInt64>? {
            phaseNames.firstIndex(of: name).map { histograms[$0] }
        }
    }

    private struct State: Sendable {
        var templates = EndpointTemplates()
        var endpoints: [Key: Aggregate] = [:]
        /// Path → template, so a repeated path is not split and joined again (bounded).
        var templateCache: [String: String] = [:]
        /// Interceptor names and their phase names (`interceptor:<name>`), built once, in the
        /// order calls list them (looked up like ``Aggregate``'s phases, by position first).
        var interceptorNames: [String] = []
        var interceptorPhases: [String] = []

        /// The endpoint template `rawPath` counts under, cached by path.
        mutating func template(for rawPath: String) -> String {
            if let cached = templateCache[rawPath] { return cached }
            let template = templates.template(for: rawPath)
            if templateCache.count >= 4_096 { templateCache = [:] }
            templateCache[rawPath] = template
            return template
        }

        mutating func interceptorPhase(_ name: String, hint: Int) -> String {
            if let found = interceptorNames.index(of: name, hint: hint) { return interceptorPhases[found] }
            interceptorNames.append(name)
            interceptorPhases.append("interceptor:\(name)")
            return interceptorPhases[interceptorPhases.count - 1]
        }
    }

    private let state = Lock(State())
    /// Phases in the order snapshots list them.
    static let phaseOrder = ["call", "queued", "dns", "connect", "tls", "ttfb", "transfer", "backoff", "decoding"]

    /// Creates an empty collector.
    /// - Parameter maxEndpoints: Endpoints tracked before new ones count as `other` (default 500).
    public init(maxEndpoints: Int = 500) {
        self.maxEndpoints = max(1, maxEndpoints)
    }

    /// Names a path template, e.g. `/users/{id}`: `{…}` matches one path segment.
    /// - Parameter template: The template.
    public func register(template: String) {
        state.withLock { state in
            state.templates.register(template)
            state.templateCache = [:]
        }
    }

    /// A finished call waiting in a shard to be folded into the histograms.
    struct PendingCall: Sendable {
        var head: HTTPRequest
        var phases: [(String, Duration)]
        var interceptors: [(name: String, duration: Duration)]
        var failed: Bool
        /// Whether the call shared another call's exchange.
        var coalesced = false
        /// The template a ``TimingStats/templateTagPrefix`` tag named, which wins over the path's.
        var template: String?
    }

    /// Calls recorded but not folded yet, in one of a few shards: a call takes a shard's lock just
    /// long enough to append, and only every ``foldBatch``-th call takes the histograms' lock, so
    /// concurrent calls rarely wait for each other.
    private final class Shard: Sendable {
        let calls = Lock<[PendingCall]>([])
    }

    static let foldBatch = 32
    private let shards = (0..<4).map { _ in Shard() }

    /// Records one finished call; `shard` spreads concurrent calls (e.g. the exchange id). The call
    /// shows in the next ``snapshot()``.
    func enqueue(_ call: PendingCall, shard: UInt64) {
        let full: [PendingCall]? = shards[Int(shard % UInt64(shards.count))].calls.withLock { calls in
            calls.append(call)
            guard calls.count >= Self.foldBatch else { return nil }
            defer { calls = [] }
            return calls
        }
        if let full { state.withLock { state in for call in full { _ = fold(call, into: &state) } } }
    }

    /// Records one finished call now, under its endpoint.
    /// - Returns: The endpoint it counted under.
    @discardableResult
    func record(_ call: PendingCall) -> Key {
        state.withLock { fold(call, into: &$0) }
    }

    /// Folds every call waiting in a shard into the histograms.
    private func flush() {
        for shard in shards {
            let waiting = shard.calls.withLock { calls in
                defer { calls = [] }
                return calls
            }
            if !waiting.isEmpty { state.withLock { state in for call in waiting { _ = fold(call, into: &state) } } }
        }
    }

    private func fold(_ call: PendingCall, into state: inout State) -> Key {
        let head = call.head
        var key = Key(
            method: head.method.rawValue, host: head.authority ?? "", path: call.template ?? state.template(for: head.path ?? "/"))
        var index = state.endpoints.index(forKey: key)
        if index == nil {
            if state.endpoints.count >= maxEndpoints { key.path = "other" }
            index = state.endpoints.index(forKey: key)
            if index == nil {
                state.endpoints[key] = Aggregate()
                index = state.endpoints.index(forKey: key)
            }
        }
        guard let index else { return key }
        // Mutate in place, found once: a histogram holds thousands of counters, and copying one
        // out of the dictionary and back would copy them all on every call.
        state.endpoints.values[index].count += 1
        if call.failed { state.endpoints.values[index].errors += 1 }
        if call.coalesced { state.endpoints.values[index].coalesced += 1 }
        for (position, (name, duration)) in call.phases.enumerated() {
            state.endpoints.values[index].record(Self.microseconds(duration), phase: name, hint: position)
        }
        let offset = call.phases.count
        for (position, (name, duration)) in call.interceptors.enumerated() {
            let phase = state.interceptorPhase(name, hint: position)
            state.endpoints.values[index].record(Self.microseconds(duration), phase: phase, hint: offset + position)
        }
        return key
    }

    private static func microseconds(_ duration: Duration) -> UInt64 {
        UInt64(max(1, min(highestMicroseconds, (duration.milliseconds * 1000).rounded())))
    }

    private static let highestMicroseconds: Double = 3_600_000_000
    fileprivate static let emptyHistogram = Histogram<UInt64>(
        lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)

    /// The figures so far.
    /// - Returns: Every endpoint, sorted by method, host and path.
    public func snapshot() -> TimingSnapshot {
        flush()
        let endpoints = state.withLock { $0.endpoints }
        let rows = endpoints.map { key, aggregate in
            let names =
                Self.phaseOrder.filter { aggregate.phaseNames.contains($0) }
                + aggregate.phaseNames.filter { !Self.phaseOrder.contains($0) }.sorted()
            let phases = names.compactMap { name in
                aggregate.histogram(name).map { histogram in
                    TimingSnapshot.Phase(
                        name: name, count: Int(histogram.totalCount),
                        p50: histogram.valueAtPercentile(50), p90: histogram.valueAtPercentile(90),
                        p99: histogram.valueAtPercentile(99), max: histogram.max)
                }
            }
            return TimingSnapshot.Endpoint(
                method: key.method, host: key.host, path: key.path, count: aggregate.count,
                errors: aggregate.errors, coalesced: aggregate.coalesced, phases: phases)
        }
        return TimingSnapshot(endpoints: rows.sorted { ($0.method, $0.host, $0.path) < ($1.method, $1.host, $1.path) })
    }

    /// Forgets everything recorded (templates stay).
    public func reset() {
        flush()
        state.withLock { $0.endpoints = [:] }
    }
}

extension [String] {
    /// The index of `name`, trying position `hint` first (one comparison when the order repeats).
    fileprivate func index(of name: String, hint: Int) -> Int? {
        if hint < count, self[hint] == name { return hint }
        return firstIndex(of: name)
    }
}
