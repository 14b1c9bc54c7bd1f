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
    @usableFromInline let profilesChain: Bool

    private struct State {
        var timings = TransferTimings()
        var stages: [PipelineTimings.Stage] = []
        var profile: ChainProfile?
        var storage: [ObjectIdentifier: any Sendable] = [:]
        var pendingStageReport: PendingStageReport?
        var stagesFinished = false
    }

    /// Held inline: the context is one allocation, not one for itself and one for its lock.
    private let state: Mutex<State>
    private let currentAttempt = Atomic<Int>(1)
    /// Nanoseconds from ``startedAt`` to the current attempt's start, `Int64.min` before the first:
    /// an atomic, not the lock, because the chain sets it on every attempt and transports read it.
    private let attemptOffset = Atomic<Int64>(.min)
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
        self.state = Mutex(State(profile: profiledLinks.map { ChainProfile(names: $0, startedAt: startedAt) }))
    }

    /// The current attempt, starting at 1; links that send the request again advance it.
    public var attempt: Int {
        get { currentAttempt.load(ordering: .relaxed) }
        set { currentAttempt.store(newValue, ordering: .relaxed) }
    }

    /// When the chain handed the current attempt to the transport (the start of the exchange until
    /// then): the zero of ``TransferTimings`` for transports that measure phases themselves.
    public var attemptStartedAt: ContinuousClock.Instant {
        get {
            let offset = attemptOffset.load(ordering: .acquiring)
            return offset == .min ? startedAt : startedAt.advanced(by: .nanoseconds(offset))
        }
        set { attemptOffset.store(Self.nanoseconds(startedAt.duration(to: newValue)), ordering: .releasing) }
    }

    /// `duration` in whole nanoseconds, clamped to what `attemptOffset` holds (±292 years; never
    /// `Int64.min`, which means "no attempt yet").
    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflowed) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, overflowedAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        guard !overflowed, !overflowedAgain else { return seconds < 0 ? .min + 1 : .max }
        return max(.min + 1, total)
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

    /// The chain's stages recorded so far: each interceptor's own time, and the named stages
    /// (``PipelineTimings/stages``). Interceptor times and the `queued` stage are measured only in a
    /// chain that reads them (one with a ``ReadsStageTimings`` link).
    public var pipelineTimings: PipelineTimings {
        var (timings, interceptors) = stageTimings
        for (name, duration) in interceptors { timings.interceptors[name, default: .zero] += duration }
        return timings
    }

    /// Records that the exchange spent `duration` in the stage `name` (a name your module owns and
    /// documents, e.g. a wait between attempts): timing statistics report it as a phase of the call.
    ///
    /// ```swift
    /// context.recordStage("backoff", delay)
    /// ```
    /// - Parameters:
    ///   - name: The stage's name.
    ///   - duration: How long it took.
    public func recordStage(_ name: String, _ duration: Duration) {
        state.withLock { $0.stages.append(PipelineTimings.Stage(name: name, duration: duration)) }
    }

    /// Ends the stages recorded after the response (see ``RequestOptions/recordsStagesAfterResponse``):
    /// a link that waits for them (``whenStagesRecorded(_:)``) runs now. Call it once, after the last
    /// stage, whether or not the work succeeded.
    public func finishRecordingStages() {
        let pending = state.withLock { state in
            state.stagesFinished = true
            defer { state.pendingStageReport = nil }
            return state.pendingStageReport
        }
        pending?.run()
    }

    /// Holds `report` until the caller that records stages after the response finishes
    /// (``finishRecordingStages()``), or until the context ends without it: for a link that
    /// completes a record only once every stage is in (see ``RequestOptions/recordsStagesAfterResponse``).
    /// - Parameter report: What to run then; at most one is held.
    /// - Returns: `false` when recording already finished: the caller then reports at once.
    public func whenStagesRecorded(_ report: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard !state.stagesFinished else { return false }
            state.pendingStageReport = PendingStageReport(report)
            return true
        }
    }

    /// The named stages, and the interceptors' own times by name in chain order: what timing
    /// statistics read, without building a dictionary. Interceptor times and the `queued` stage are
    /// measured only in a chain with a ``ReadsStageTimings`` link.
    public var stageTimings: (stages: PipelineTimings, interceptors: [(name: String, duration: Duration)]) {
        state.withLock { state in
            var stages = PipelineTimings(stages: state.stages)
            if let queued = state.profile?.queued, !stages.stages.contains(where: { $0.name == PipelineTimings.queuedStage }) {
                stages.stages.insert(PipelineTimings.Stage(name: PipelineTimings.queuedStage, duration: queued), at: 0)
            }
            return (stages, state.profile?.ownTimes() ?? [])
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

    /// Takes what `other` recorded about its response: the transport's timings, and every typed
    /// value `other` holds that this context does not. For a link that answers this call with
    /// another exchange's response (one exchange shared by identical calls), so each plugin's
    /// values about the response (where it came from, say) read the same in every call it answers.
    /// - Parameter other: The exchange whose response this call gets.
    public func adoptResponseValues(of other: ExchangeContext) {
        let (timings, storage) = other.state.withLock { ($0.timings, $0.storage) }
        state.withLock { state in
            state.timings = timings
            state.storage.merge(storage) { own, _ in own }
        }
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

    /// ``checkLiveness()`` at a time the caller has already read, for a caller that needs the time
    /// anyway: the clock is read once.
    /// - Parameter now: The current time.
    /// - Throws: ``SwitchyardError/Kind/cancelled`` or ``SwitchyardError/Kind/timeout``.
    public func checkLiveness(at now: ContinuousClock.Instant) throws(SwitchyardError) {
        if Task.isCancelled { throw .cancelled }
        if let deadline, now >= deadline { throw .timedOut() }
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

/// A statistics record waiting for the stages recorded after the response; delivered when the
/// context ends if they never finish.
final class PendingStageReport: Sendable {
    private let report: @Sendable () -> Void
    private let delivered = Atomic<Bool>(false)

    init(_ report: @escaping @Sendable () -> Void) { self.report = report }

    func run() {
        guard !delivered.exchange(true, ordering: .relaxed) else { return }
        report()
    }

    deinit { run() }
}
