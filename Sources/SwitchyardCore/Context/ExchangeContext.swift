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
///
/// ### Events
///
/// ``eventBus`` is the client's bus, fixed when the exchange starts: every link publishes on it
/// (``publish(_:request:)``), whether or not an ``EventsInterceptor`` is in the chain.
public final class ExchangeContext: Sendable {
    /// A process-unique identifier of the exchange, increasing with each new exchange.
    public let id: UInt64
    /// When the client started the exchange.
    public let startedAt: ContinuousClock.Instant
    /// The point by which the whole exchange must finish, or `nil` for none.
    public let deadline: ContinuousClock.Instant?
    /// The options of the request as the client received it.
    public let options: RequestOptions
    /// The bus this exchange publishes its events on: the client's, or `nil` when it has none.
    public let eventBus: EventBus?
    /// The chain's plugin observers, each already limited to its plugin's scope.
    let observers: [Plugin.Observer]
    /// Whether the chain records where this exchange spent its time in each link (set by the
    /// pipeline when a link reads stage timings: a ``ReadsStageTimings`` link).
    let profilesChain: Bool

    private struct State {
        var attemptStartedAt: ContinuousClock.Instant?
        var timings = TransferTimings()
        var pipelineTimings = PipelineTimings()
        var profile: ChainProfile?
        var storage: [ObjectIdentifier: any Sendable] = [:]
        var pendingDecodingReport: DecodingReport?
        var decodingReported = false
        var provenance = ResponseProvenance.network
    }

    private let state: Lock<State>
    private let currentAttempt = Atomic<Int>(1)
    private static let nextID = Atomic<UInt64>(1)

    /// Creates the context of a new exchange.
    /// - Parameters:
    ///   - options: The request's options; the deadline is derived from them.
    ///   - startedAt: When the exchange started.
    ///   - eventBus: Where the exchange's events go (a ``Client`` passes its own).
    public convenience init(
        options: RequestOptions = RequestOptions(), startedAt: ContinuousClock.Instant = .now, eventBus: EventBus? = nil
    ) {
        self.init(options: options, startedAt: startedAt, eventBus: eventBus, observers: [], profiledLinks: nil)
    }

    /// Creates the context of a new exchange that publishes to `eventBus` and `observers`, and whose
    /// chain of `profiledLinks` names (the transport last) records its stage timings (`nil`: none).
    init(
        options: RequestOptions, startedAt: ContinuousClock.Instant, eventBus: EventBus?, observers: [Plugin.Observer],
        profiledLinks: [String]?
    ) {
        self.observers = observers
        self.id = Self.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        self.startedAt = startedAt
        self.options = options
        self.deadline = options.effectiveDeadline(from: startedAt)
        self.eventBus = eventBus
        self.profilesChain = profiledLinks != nil
        self.state = Lock(State(profile: profiledLinks.map { ChainProfile(names: $0, startedAt: startedAt) }))
    }

    /// The current attempt, starting at 1; retry interceptors advance it.
    public var attempt: Int {
        get { currentAttempt.load(ordering: .relaxed) }
        set { currentAttempt.store(newValue, ordering: .relaxed) }
    }

    /// When the chain handed the current attempt to the transport (the start of the exchange until
    /// then): the zero of ``TransferTimings`` for transports that measure phases themselves.
    public var attemptStartedAt: ContinuousClock.Instant {
        get { state.withLock { $0.attemptStartedAt ?? startedAt } }
        set { state.withLock { $0.attemptStartedAt = newValue } }
    }

    /// Where the exchange's response came from and how old it is: ``ResponseProvenance/network``
    /// unless a cache interceptor answered (it sets this before it returns its response).
    public var provenance: ResponseProvenance {
        get { state.withLock { $0.provenance } }
        set { state.withLock { $0.provenance = newValue } }
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

    /// The chain's own stages recorded so far: queueing, interceptors, back-off waits, decoding.
    /// Queueing and interceptor times are recorded only in a chain that reads them (one with a
    /// ``ReadsStageTimings`` link).
    public var pipelineTimings: PipelineTimings {
        var (timings, interceptors) = stageTimings
        for (name, duration) in interceptors { timings.interceptors[name, default: .zero] += duration }
        return timings
    }

    /// Updates the chain's stage timings in place, atomically.
    /// - Parameter update: Changes the recorded stage timings.
    public func recordPipelineTimings(_ update: (inout PipelineTimings) -> Void) {
        state.withLock { update(&$0.pipelineTimings) }
    }

    /// Records how long the caller took to decode the response body into a model (the `decoding`
    /// phase), and completes a call record that timing statistics hold for it (see
    /// ``RequestOptions/recordsDecoding``). Call it once, after decoding, whether or not it succeeded.
    /// - Parameter duration: The decoding time, or `nil` when the caller ended up not decoding
    ///   (an error or an empty body came first): the record is then released without the phase.
    public func recordDecoding(_ duration: Duration?) {
        let report = state.withLock { state in
            if let duration { state.pipelineTimings.decoding = duration }
            state.decodingReported = true
            defer { state.pendingDecodingReport = nil }
            return state.pendingDecodingReport
        }
        report?.complete(duration)
    }

    /// Holds `report` until the caller reports its decoding time with ``recordDecoding(_:)`` (it
    /// then runs with that time), or until the context ends without one (it runs with `nil`): for a
    /// link that completes a record only when the decoding phase is known (see
    /// ``RequestOptions/recordsDecoding``).
    /// - Parameter report: What to run once the decoding time is known; at most one is held.
    /// - Returns: `false` when decoding was already reported: the caller then reports at once.
    public func whenDecodingRecorded(_ report: @escaping @Sendable (Duration?) -> Void) -> Bool {
        state.withLock { state in
            guard !state.decodingReported else { return false }
            state.pendingDecodingReport = DecodingReport(report)
            return true
        }
    }

    /// The stage timings without the interceptors' times, and the interceptors' own times by name
    /// in chain order: what timing statistics read, without building a dictionary. Interceptor
    /// times are recorded only in a chain with a ``ReadsStageTimings`` link.
    public var stageTimings: (stages: PipelineTimings, interceptors: [(name: String, duration: Duration)]) {
        state.withLock { state in
            var stages = state.pipelineTimings
            stages.queued = state.profile?.queued ?? stages.queued
            var interceptors = state.profile?.ownTimes() ?? []
            for (name, duration) in stages.interceptors { interceptors.append((name, duration)) }
            stages.interceptors = [:]
            return (stages, interceptors)
        }
    }

    /// The chain entered link `index` (the transport is the last index): one clock reading per crossing.
    func enterLink(_ index: Int) {
        let now = ContinuousClock.now
        state.withLock { $0.profile?.enter(index, at: now) }
    }

    /// The chain left link `index`, back to the link that called it.
    func leaveLink(_ index: Int) {
        let now = ContinuousClock.now
        state.withLock { $0.profile?.leave(index, at: now) }
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

/// A statistics record waiting for the decoding time; delivered without it if the context ends first.
final class DecodingReport: Sendable {
    private let report: @Sendable (Duration?) -> Void
    private let delivered = Atomic<Bool>(false)

    init(_ report: @escaping @Sendable (Duration?) -> Void) { self.report = report }

    func complete(_ duration: Duration?) {
        guard !delivered.exchange(true, ordering: .relaxed) else { return }
        report(duration)
    }

    deinit { complete(nil) }
}
