import Synchronization

/// State that travels with one exchange through every interceptor and the transport.
///
/// It carries the request's identity (``id``), its ``deadline``, the current ``attempt``, the
/// ``timings`` the transport records, and typed storage where plugins keep their own values:
///
/// ```swift
/// enum TraceIDKey: ExchangeContextKey { typealias Value = String }
///
/// context[TraceIDKey.self] = "4bf92f35"
/// let traceID = context[TraceIDKey.self]
/// ```
///
/// The context is a reference shared by the whole exchange and is safe to use from any task.
public final class ExchangeContext: Sendable {
    /// A process-unique identifier of the exchange, increasing with each new exchange.
    public let id: UInt64
    /// When the client started the exchange.
    public let startedAt: ContinuousClock.Instant
    /// The point by which the whole exchange must finish, or `nil` for none.
    public let deadline: ContinuousClock.Instant?
    /// The options of the request as the client received it.
    public let options: RequestOptions

    private struct State {
        var attempt = 1
        var attemptStartedAt: ContinuousClock.Instant?
        var timings = TransferTimings()
        var pipelineTimings = PipelineTimings()
        /// Per chain link index (the transport is the last index), summed over runs: its inclusive
        /// time, and its own time not yet folded into `pipelineTimings.interceptors`. Kept by position
        /// so the hot path neither hashes names nor grows a dictionary.
        var linkTimes: [LinkTime] = []
        /// The interceptors' names, by index (the pipeline's array, shared).
        var linkNames: [String] = []

        /// The stage timings with the per-link own times folded in by name.
        func foldedPipelineTimings() -> PipelineTimings {
            var timings = pipelineTimings
            timings.interceptors = Dictionary(interceptorTimes(), uniquingKeysWith: +)
            return timings
        }

        /// Time inside each interceptor, by name, in chain order (recorded links, then any times
        /// recorded by name through ``ExchangeContext/recordPipelineTimings(_:)``).
        func interceptorTimes() -> [(name: String, duration: Duration)] {
            var times: [(name: String, duration: Duration)] = []
            times.reserveCapacity(linkNames.count + pipelineTimings.interceptors.count)
            func add(_ name: String, _ duration: Duration) {
                if let existing = times.firstIndex(where: { $0.name == name }) {
                    times[existing].duration += duration
                } else {
                    times.append((name, duration))
                }
            }
            for (index, name) in linkNames.enumerated() where linkTimes[index].own != .zero {
                add(name, linkTimes[index].own)
            }
            for (name, duration) in pipelineTimings.interceptors { add(name, duration) }
            return times
        }
        var storage: [ObjectIdentifier: any Sendable] = [:]
    }

    /// The time one chain link took, summed over its runs.
    private struct LinkTime {
        var inclusive = Duration.zero
        var own = Duration.zero
    }

    private let state = Mutex(State())
    private let recordsStages = Atomic<Bool>(false)
    private static let nextID = Atomic<UInt64>(1)

    /// Creates the context of a new exchange.
    /// - Parameters:
    ///   - options: The request's options; the deadline is derived from them.
    ///   - startedAt: When the exchange started.
    public init(options: RequestOptions = RequestOptions(), startedAt: ContinuousClock.Instant = .now) {
        self.id = Self.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        self.startedAt = startedAt
        self.options = options
        self.deadline = options.effectiveDeadline(from: startedAt)
    }

    /// The current attempt, starting at 1; retry interceptors advance it.
    public var attempt: Int {
        get { state.withLock { $0.attempt } }
        set { state.withLock { $0.attempt = newValue } }
    }

    /// When the chain handed the current attempt to the transport (the start of the exchange until
    /// then): the zero of ``TransferTimings`` for transports that measure phases themselves.
    public var attemptStartedAt: ContinuousClock.Instant {
        get { state.withLock { $0.attemptStartedAt ?? startedAt } }
        set { state.withLock { $0.attemptStartedAt = newValue } }
    }

    /// The phase timings recorded so far by the transport.
    public var timings: TransferTimings {
        get { state.withLock { $0.timings } }
        set { state.withLock { $0.timings = newValue } }
    }

    /// Updates the timings in place, atomically.
    /// - Parameter update: Changes the recorded timings.
    public func recordTimings(_ update: (inout TransferTimings) -> Void) {
        state.withLock { update(&$0.timings) }
    }

    /// Whether the chain records ``pipelineTimings`` for queueing and each interceptor (off by
    /// default: it costs two clock reads and two locks per link). A timing statistics link turns it on.
    public var recordsPipelineStages: Bool {
        get { recordsStages.load(ordering: .relaxed) }
        set { recordsStages.store(newValue, ordering: .relaxed) }
    }

    /// The inclusive time recorded for chain link `index` so far.
    func linkTime(_ index: Int) -> Duration {
        state.withLock { index < $0.linkTimes.count ? $0.linkTimes[index].inclusive : .zero }
    }

    /// Adds one run of link `index` that began at `started`: its inclusive time, and its own time
    /// (inclusive minus what link `index + 1` spent since `nextSpentBefore`) under its name.
    /// - Parameter names: The pipeline's interceptor names; index `names.count` is the transport.
    func recordLinkTime(_ index: Int, started: ContinuousClock.Instant, nextSpentBefore: Duration, names: [String]) {
        let inclusive = started.duration(to: .now)
        state.withLock { state in
            if state.linkTimes.count <= names.count {
                state.linkTimes += repeatElement(LinkTime(), count: names.count + 1 - state.linkTimes.count)
                state.linkNames = names
            }
            state.linkTimes[index].inclusive += inclusive
            guard index < names.count else { return }
            let nextSpent = state.linkTimes[index + 1].inclusive - nextSpentBefore
            state.linkTimes[index].own += inclusive - nextSpent
        }
    }

    /// The chain's own stages recorded so far: queueing, interceptors, back-off waits, decoding.
    public var pipelineTimings: PipelineTimings {
        state.withLock { $0.foldedPipelineTimings() }
    }

    /// Queueing, back-off waits and decoding recorded so far, without folding in the interceptors'
    /// times (which costs a dictionary): for readers that need only those.
    var pipelineStagesExcludingInterceptors: PipelineTimings {
        state.withLock { $0.pipelineTimings }
    }

    /// Time inside each interceptor so far, by name, in chain order: ``PipelineTimings/interceptors``
    /// without building a dictionary (the timing statistics read it on every call).
    var interceptorTimes: [(name: String, duration: Duration)] {
        state.withLock { $0.interceptorTimes() }
    }

    /// Updates the chain's stage timings in place, atomically.
    /// - Parameter update: Changes the recorded stage timings.
    public func recordPipelineTimings(_ update: (inout PipelineTimings) -> Void) {
        state.withLock { state in
            if state.linkTimes.contains(where: { $0.own != .zero }) {
                state.pipelineTimings = state.foldedPipelineTimings()
                for index in state.linkTimes.indices { state.linkTimes[index].own = .zero }
            }
            update(&state.pipelineTimings)
        }
    }

    /// The time left until the deadline (never negative), or `nil` when there is no deadline.
    public var remainingTime: Duration? {
        deadline.map { max(.zero, ContinuousClock.now.duration(to: $0)) }
    }

    /// Typed storage for plugins.
    /// - Parameter key: The key type that names the value.
    public subscript<Key: ExchangeContextKey>(key: Key.Type) -> Key.Value? {
        get { state.withLock { $0.storage[ObjectIdentifier(key)] as? Key.Value } }
        set { state.withLock { $0.storage[ObjectIdentifier(key)] = newValue } }
    }

    /// Throws if the exchange was cancelled or its deadline has passed.
    /// - Throws: ``SwitchyardError/Kind/cancelled`` or ``SwitchyardError/Kind/timeout``.
    public func checkLiveness() throws(SwitchyardError) {
        if Task.isCancelled { throw .cancelled }
        if let deadline, ContinuousClock.now >= deadline { throw .timedOut() }
    }
}

/// Names a value that plugins keep in an ``ExchangeContext``.
///
/// ```swift
/// enum TraceIDKey: ExchangeContextKey { typealias Value = String }
/// ```
public protocol ExchangeContextKey {
    /// The type of the stored value.
    associatedtype Value: Sendable
}
