import SwitchyardCore

/// The life of a transfer (a ``Download`` or an ``Upload``) as a pure state machine: each input
/// changes the state and returns the ``Action`` its owner performs. It holds no lock, starts no
/// task and reads no clock; the owner calls it under its own lock, publishes what the action
/// says, and starts or cancels its runs' tasks.
///
/// ```
/// notStarted ─start─▶ active(running) ─pause─▶ paused ─resume─▶ active(running)
///                       │   ▲ report (the current run): queued, running, waitingToRetry
///                       │   └─┘
///                       └─ finish ─▶ ended(succeeded | failed | cancelled)
/// notStarted, active, paused ─cancel─▶ ended(cancelled)
/// ```
///
/// - **Generations.** Each run is tagged with the generation it was started with; starting,
///   pausing and cancelling bump the generation, so a stopped run's reports and failures are
///   ignored. A success counts even from a stopped run (it completed while a pause was being
///   requested), unless the transfer has ended.
/// - **Ending.** The first ending wins; later inputs are ignored.
struct TransferLifecycle<Success: Sendable>: Sendable {
    /// Where the transfer is.
    enum State: Sendable {
        /// Created, not started.
        case notStarted
        /// A run is under way.
        case active(Activity)
        /// Paused by the app with this many bytes transferred.
        case paused(completedBytes: Int64)
        /// Over.
        case ended(Ending)
    }

    /// What the current run does, as the chain reports it.
    enum Activity: Sendable {
        /// Waiting behind a concurrency or rate limit.
        case queued
        /// An exchange is in flight (or the result is being put in place).
        case running
        /// Waiting before attempt `attempt` (`delay` `nil`: until a hold lifts).
        case waitingToRetry(attempt: Int, delay: Duration?)

        /// The activity the chain reports while a run is in flight.
        init(reportedBy phase: ExchangeActivity) {
            switch phase {
            case .queued: self = .queued
            case .running: self = .running
            case .waitingForAttempt(let attempt, let delay): self = .waitingToRetry(attempt: attempt, delay: delay)
            }
        }
    }

    /// How the transfer ended.
    enum Ending: Sendable {
        /// Complete.
        case succeeded(Success)
        /// Failed with this error (never one of kind `cancelled`).
        case failed(SwitchyardError)
        /// Cancelled by the app (or by a run that ended with `SwitchyardError.Kind.cancelled`).
        case cancelled

        /// The ending a run's outcome gives: `succeeded`, `cancelled` or `failed`.
        init(_ outcome: Result<Success, SwitchyardError>) {
            switch outcome {
            case .success(let result): self = .succeeded(result)
            case .failure(let error): self = error.kind == .cancelled ? .cancelled : .failed(error)
            }
        }
    }

    /// What the owner does after an input, still under its lock (cancelling a task may wait until
    /// the lock is released).
    enum Action: Sendable {
        /// Publish `state` (`running`), then start a run tagged `generation` once the previous
        /// run's task (if any) has ended, so that two runs never overlap.
        case startRun(generation: Int, publishing: TransferState<Success>)
        /// Publish `state` (`paused`), then cancel the running task.
        case cancelRun(publishing: TransferState<Success>)
        /// Publish `state` (a phase the chain reported for the current run).
        case publish(TransferState<Success>)
        /// End the progress, then publish the final `state` and end the state streams; cancel the
        /// running task too when `cancellingRun`.
        case finish(TransferState<Success>, cancellingRun: Bool)
        /// Nothing: the input does not apply in this state, or comes from a stopped run.
        case ignore
    }

    /// Where the transfer is.
    private(set) var state = State.notStarted
    /// The generation of the current run; bumped by starting, pausing and cancelling.
    private(set) var generation = 0

    /// Creates the lifecycle of a transfer that has not started.
    init() {}

    /// The public state for ``state``: the one mapping from the lifecycle to `TransferState`.
    var transferState: TransferState<Success> {
        switch state {
        case .notStarted: .notStarted
        case .active(.queued): .queued
        case .active(.running): .running
        case .active(.waitingToRetry(let attempt, let delay)): .waitingToRetry(attempt: attempt, delay: delay)
        case .paused(let completedBytes): .paused(completedBytes: completedBytes)
        case .ended(.succeeded(let result)): .succeeded(result)
        case .ended(.failed(let error)): .failed(error)
        case .ended(.cancelled): .cancelled
        }
    }

    /// Whether the run tagged `generation` is the current one (neither paused nor cancelled since).
    func isCurrent(_ generation: Int) -> Bool {
        generation == self.generation
    }

    // MARK: - Inputs from the app

    /// Starts the first run; ignored once started.
    mutating func start() -> Action {
        guard case .notStarted = state else { return .ignore }
        return launch()
    }

    /// Stops the running run, keeping `completedBytes` as the paused state's count; ignored unless
    /// a run is under way.
    mutating func pause(completedBytes: Int64) -> Action {
        guard case .active = state else { return .ignore }
        generation += 1
        state = .paused(completedBytes: completedBytes)
        return .cancelRun(publishing: transferState)
    }

    /// Starts a new run after a pause; ignored unless paused.
    mutating func resume() -> Action {
        guard case .paused = state else { return .ignore }
        return launch()
    }

    /// Ends the transfer as cancelled and cancels the running task (if any); ignored once ended.
    mutating func cancel() -> Action {
        if case .ended = state { return .ignore }
        generation += 1
        state = .ended(.cancelled)
        return .finish(transferState, cancellingRun: true)
    }

    // MARK: - Inputs from a run

    /// A phase the chain reported for the run `generation`: published while that run is current
    /// and under way; ignored otherwise, and for the phases a transfer decides itself.
    mutating func report(_ phase: ExchangeActivity, generation: Int) -> Action {
        guard case .active = state, isCurrent(generation) else { return .ignore }
        state = .active(Activity(reportedBy: phase))
        return .publish(transferState)
    }

    /// The outcome of the run `generation`: ends the transfer when it is a success, or when that
    /// run is current; ignored once ended (or before any run started).
    mutating func finish(_ outcome: Result<Success, SwitchyardError>, generation: Int) -> Action {
        switch state {
        case .notStarted, .ended: return .ignore
        case .active, .paused: break
        }
        // A run that completed while a pause was being requested still completed; a failure
        // counts only for the current run.
        if case .failure = outcome, !isCurrent(generation) { return .ignore }
        // An earlier run's success after a resume ends the transfer: the newer run stops.
        let newerRunActive: Bool
        if case .active = state { newerRunActive = !isCurrent(generation) } else { newerRunActive = false }
        state = .ended(Ending(outcome))
        return .finish(transferState, cancellingRun: newerRunActive)
    }

    private mutating func launch() -> Action {
        generation += 1
        state = .active(.running)
        return .startRun(generation: generation, publishing: transferState)
    }
}
