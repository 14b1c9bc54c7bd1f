import SwitchyardCore

/// One exchange an ``ExchangeTracker`` follows: its tags, whether it is queued, and how to cancel it.
final class TrackedExchange: Sendable {
    let id: UInt64
    let tags: Set<String>
    private let state = Lock(State())

    private struct State {
        var cancelled = false
        var ended = false
        var cancelActions: [@Sendable () -> Void] = []
    }

    init(id: UInt64, tags: Set<String>) {
        self.id = id
        self.tags = tags
    }

    /// Runs `action` when the exchange is cancelled (at once if it already was; never once it ended).
    func onCancel(_ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state in
            if !state.cancelled, !state.ended { state.cancelActions.append(action) }
            return state.cancelled && !state.ended
        }
        if runNow { action() }
    }

    /// The exchange ended: its cancel actions are dropped. They hold its task, whose result holds the
    /// response and its context, which holds this entry — a cycle that must not outlive the exchange.
    func end() {
        let actions = state.withLock { state in
            state.ended = true
            defer { state.cancelActions = [] }
            return state.cancelActions
        }
        _ = actions  // released here, outside the lock
    }

    /// Cancels the exchange: runs every cancel action once.
    func cancel() {
        let actions = state.withLock { state in
            state.cancelled = true
            defer { state.cancelActions = [] }
            return state.cancelActions
        }
        for action in actions { action() }
    }
}

/// A tracked exchange and the tracker that follows it.
struct TrackerRegistration: Sendable {
    let tracker: ExchangeTracker
    let exchange: TrackedExchange
}

extension ExchangeContext {
    /// Tells the exchange's tracker, if any, that it waits in (or left) a limit's queue, and the
    /// work that started it (``ActivityReporting``) that it is queued, or running again.
    func markQueued(_ queued: Bool) {
        ActivityReporting.report(queued ? .queued : .running)
        guard let registration = self[TrackerRegistrationKey.self] else { return }
        registration.tracker.exchange(registration.exchange, isQueued: queued)
    }

    /// Passes a limit: `acquire` waits for it and calls the closure it is given when the exchange
    /// has to queue. While it waits the exchange is marked queued (``markQueued(_:)``); once it
    /// leaves the queue, the time since the exchange started is recorded as its queued phase
    /// (``PipelineTimings``).
    func passLimit<Value>(
        _ acquire: (_ queued: () -> Void) async throws(SwitchyardError) -> Value
    ) async throws(SwitchyardError) -> Value {
        var waited = false
        let value: Value
        do {
            value = try await acquire {
                waited = true
                markQueued(true)
            }
        } catch {
            if waited { markQueued(false) }
            throw error
        }
        if waited {
            let now = ContinuousClock.now
            markQueued(false)
            if stageTimings.stages.queued == nil { recordStage(PipelineTimings.queuedStage, startedAt.duration(to: now)) }
        }
        return value
    }
}
