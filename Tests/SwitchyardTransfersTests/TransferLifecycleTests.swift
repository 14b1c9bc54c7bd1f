import Switchyard
import SwitchyardActivity
import Testing

@testable import SwitchyardTransfers

/// The transfer lifecycle on its own (no network, no tasks): every input in every state, the action
/// it returns, the state it leaves, and the runs' generations.
@Suite struct TransferLifecycleTests {
    typealias Lifecycle = TransferLifecycle<String>

    /// A state to put a lifecycle in before an input.
    enum Phase: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case notStarted, queued, running, waitingToRetry, paused, succeeded, failed, cancelled

        var testDescription: String { rawValue }

        var isActive: Bool { [.queued, .running, .waitingToRetry].contains(self) }
        var isEnded: Bool { [.succeeded, .failed, .cancelled].contains(self) }
    }

    static let failure = SwitchyardError.connectionFailed("The connection was lost.")

    /// A lifecycle brought to `phase` by the inputs a transfer receives: its current run is
    /// generation 1 when active, and it paused with 42 bytes.
    static func lifecycle(in phase: Phase) -> Lifecycle {
        var lifecycle = Lifecycle()
        if phase == .notStarted { return lifecycle }
        _ = lifecycle.start()
        switch phase {
        case .notStarted, .running: break
        case .queued: _ = lifecycle.report(.queued, generation: 1)
        case .waitingToRetry: _ = lifecycle.report(.waitingForAttempt(2, delay: .seconds(1)), generation: 1)
        case .paused: _ = lifecycle.pause(completedBytes: 42)
        case .succeeded: _ = lifecycle.finish(.success("done"), generation: 1)
        case .failed: _ = lifecycle.finish(.failure(failure), generation: 1)
        case .cancelled: _ = lifecycle.cancel()
        }
        #expect(label(lifecycle.transferState) == label(phase))
        return lifecycle
    }

    /// `running`, `paused(42)`, `succeeded(done)`, `failed(connectionFailed)`, `waitingToRetry(2)` …
    static func label(_ state: TransferState<String>) -> String {
        switch state {
        case .waitingToRetry(let attempt, _): "waitingToRetry(\(attempt))"
        case .paused(let completedBytes): "paused(\(completedBytes))"
        case .succeeded(let result): "succeeded(\(result))"
        case .failed(let error): "failed(\(error.kind))"
        default: state.name
        }
    }

    /// The label of the state ``lifecycle(in:)`` leaves.
    static func label(_ phase: Phase) -> String {
        switch phase {
        case .waitingToRetry: "waitingToRetry(2)"
        case .paused: "paused(42)"
        case .succeeded: "succeeded(done)"
        case .failed: "failed(connectionFailed)"
        default: phase.rawValue
        }
    }

    /// `startRun(2) running`, `cancelRun paused(42)`, `publish queued`, `finish cancelled, cancelling the run`, `ignore`.
    static func label(_ action: Lifecycle.Action) -> String {
        switch action {
        case .startRun(let generation, let state): "startRun(\(generation)) \(label(state))"
        case .cancelRun(let state): "cancelRun \(label(state))"
        case .publish(let state): "publish \(label(state))"
        case .finish(let state, let cancellingRun): "finish \(label(state))" + (cancellingRun ? ", cancelling the run" : "")
        case .ignore: "ignore"
        }
    }

    // MARK: - Starting

    @Test func aNewLifecycleHasNotStarted() {
        let lifecycle = Lifecycle()
        #expect(Self.label(lifecycle.transferState) == "notStarted")
        #expect(lifecycle.generation == 0)
    }

    @Test(arguments: Phase.allCases)
    func startStartsTheFirstRunOnly(_ phase: Phase) {
        var lifecycle = Self.lifecycle(in: phase)
        let generation = lifecycle.generation
        let action = lifecycle.start()
        if phase == .notStarted {
            #expect(Self.label(action) == "startRun(1) running")
            #expect(Self.label(lifecycle.transferState) == "running")
            #expect(lifecycle.generation == 1)
        } else {
            #expect(Self.label(action) == "ignore")
            #expect(Self.label(lifecycle.transferState) == Self.label(phase))
            #expect(lifecycle.generation == generation)
        }
    }

    // MARK: - Pausing

    @Test(arguments: Phase.allCases)
    func pauseStopsAnActiveRunOnly(_ phase: Phase) {
        var lifecycle = Self.lifecycle(in: phase)
        let generation = lifecycle.generation
        let action = lifecycle.pause(completedBytes: 7)
        if phase.isActive {
            #expect(Self.label(action) == "cancelRun paused(7)")
            #expect(Self.label(lifecycle.transferState) == "paused(7)")
            #expect(lifecycle.generation == generation + 1)
            #expect(!lifecycle.isCurrent(generation))
        } else {
            #expect(Self.label(action) == "ignore")
            #expect(Self.label(lifecycle.transferState) == Self.label(phase))
            #expect(lifecycle.generation == generation)
        }
    }

    // MARK: - Resuming

    @Test(arguments: Phase.allCases)
    func resumeStartsANewRunWhenPausedOnly(_ phase: Phase) {
        var lifecycle = Self.lifecycle(in: phase)
        let generation = lifecycle.generation
        let action = lifecycle.resume()
        if phase == .paused {
            // Run 1, the pause (2), run 3.
            #expect(Self.label(action) == "startRun(3) running")
            #expect(Self.label(lifecycle.transferState) == "running")
            #expect(lifecycle.isCurrent(3))
        } else {
            #expect(Self.label(action) == "ignore")
            #expect(Self.label(lifecycle.transferState) == Self.label(phase))
            #expect(lifecycle.generation == generation)
        }
    }

    @Test func pausingAndResumingAgainStartsANewGenerationEachTime() {
        var lifecycle = Lifecycle()
        #expect(Self.label(lifecycle.start()) == "startRun(1) running")
        #expect(Self.label(lifecycle.pause(completedBytes: 10)) == "cancelRun paused(10)")
        #expect(Self.label(lifecycle.resume()) == "startRun(3) running")
        #expect(Self.label(lifecycle.pause(completedBytes: 20)) == "cancelRun paused(20)")
        #expect(Self.label(lifecycle.pause(completedBytes: 30)) == "ignore")
        #expect(Self.label(lifecycle.resume()) == "startRun(5) running")
        #expect(Self.label(lifecycle.resume()) == "ignore")
        #expect(Self.label(lifecycle.finish(.success("done"), generation: 5)) == "finish succeeded(done)")
    }

    // MARK: - Cancelling

    @Test(arguments: Phase.allCases)
    func cancelEndsEveryStateButAnEndedOne(_ phase: Phase) {
        var lifecycle = Self.lifecycle(in: phase)
        let generation = lifecycle.generation
        let action = lifecycle.cancel()
        if phase.isEnded {
            #expect(Self.label(action) == "ignore")
            #expect(Self.label(lifecycle.transferState) == Self.label(phase))
            #expect(lifecycle.generation == generation)
        } else {
            #expect(Self.label(action) == "finish cancelled, cancelling the run")
            #expect(Self.label(lifecycle.transferState) == "cancelled")
            #expect(lifecycle.generation == generation + 1)
            #expect(!lifecycle.isCurrent(generation))
        }
    }

    @Test(arguments: [Phase.succeeded, .failed, .cancelled])
    func nothingChangesAnEndedLifecycle(_ phase: Phase) {
        var lifecycle = Self.lifecycle(in: phase)
        let generation = lifecycle.generation
        let actions = [
            lifecycle.start(), lifecycle.pause(completedBytes: 1), lifecycle.resume(), lifecycle.cancel(),
            lifecycle.report(.running, generation: generation), lifecycle.finish(.success("again"), generation: generation),
            lifecycle.finish(.failure(Self.failure), generation: generation)
        ]
        #expect(actions.map(Self.label) == Array(repeating: "ignore", count: actions.count))
        #expect(Self.label(lifecycle.transferState) == Self.label(phase))
        #expect(lifecycle.generation == generation)
    }

    // MARK: - Reports from a run

    @Test func theCurrentRunsReportsArePublished() {
        var lifecycle = Lifecycle()
        _ = lifecycle.start()
        #expect(Self.label(lifecycle.report(.queued, generation: 1)) == "publish queued")
        #expect(Self.label(lifecycle.report(.running, generation: 1)) == "publish running")
        let waiting = lifecycle.report(.waitingForAttempt(2, delay: .milliseconds(500)), generation: 1)
        #expect(Self.label(waiting) == "publish waitingToRetry(2)")
        guard case .publish(.waitingToRetry(attempt: 2, let delay)) = waiting else {
            Issue.record("Expected waitingToRetry, got \(Self.label(waiting))")
            return
        }
        #expect(delay == .milliseconds(500))
        #expect(Self.label(lifecycle.report(.waitingForAttempt(3, delay: nil), generation: 1)) == "publish waitingToRetry(3)")
        // The same phase again is published again.
        #expect(Self.label(lifecycle.report(.running, generation: 1)) == "publish running")
        #expect(Self.label(lifecycle.report(.running, generation: 1)) == "publish running")
        #expect(lifecycle.generation == 1)
    }

    @Test func reportsOfAStoppedRunAreIgnored() {
        var lifecycle = Lifecycle()
        _ = lifecycle.start()
        _ = lifecycle.pause(completedBytes: 5)
        // Paused: run 1 is stopped.
        #expect(Self.label(lifecycle.report(.running, generation: 1)) == "ignore")
        #expect(Self.label(lifecycle.report(.queued, generation: 2)) == "ignore")
        #expect(Self.label(lifecycle.transferState) == "paused(5)")
        _ = lifecycle.resume()
        // Run 3 is current: run 1's late reports are ignored, and a generation not started yet too.
        #expect(Self.label(lifecycle.report(.waitingForAttempt(2, delay: nil), generation: 1)) == "ignore")
        #expect(Self.label(lifecycle.report(.queued, generation: 4)) == "ignore")
        #expect(Self.label(lifecycle.transferState) == "running")
        #expect(Self.label(lifecycle.report(.queued, generation: 3)) == "publish queued")
    }

    @Test func reportsBeforeTheFirstRunAreIgnored() {
        var lifecycle = Lifecycle()
        #expect(Self.label(lifecycle.report(.running, generation: 0)) == "ignore")
        #expect(Self.label(lifecycle.transferState) == "notStarted")
    }

    // MARK: - Outcomes of a run

    @Test(arguments: [Phase.queued, .running, .waitingToRetry])
    func theCurrentRunsOutcomeEndsTheTransfer(_ phase: Phase) {
        var succeeding = Self.lifecycle(in: phase)
        #expect(Self.label(succeeding.finish(.success("file"), generation: 1)) == "finish succeeded(file)")
        #expect(Self.label(succeeding.transferState) == "succeeded(file)")
        #expect(succeeding.isCurrent(1))  // ending with the run's outcome keeps its generation

        var failing = Self.lifecycle(in: phase)
        #expect(Self.label(failing.finish(.failure(Self.failure), generation: 1)) == "finish failed(connectionFailed)")
        #expect(failing.transferState.error?.message == Self.failure.message)

        var cancelledByTheChain = Self.lifecycle(in: phase)
        #expect(Self.label(cancelledByTheChain.finish(.failure(.cancelled), generation: 1)) == "finish cancelled")
        #expect(Self.label(cancelledByTheChain.transferState) == "cancelled")
    }

    @Test func aStoppedRunsFailureIsIgnored() {
        var lifecycle = Self.lifecycle(in: .paused)
        #expect(Self.label(lifecycle.finish(.failure(.cancelled), generation: 1)) == "ignore")
        #expect(Self.label(lifecycle.finish(.failure(Self.failure), generation: 1)) == "ignore")
        #expect(Self.label(lifecycle.transferState) == "paused(42)")

        _ = lifecycle.resume()
        #expect(Self.label(lifecycle.finish(.failure(.cancelled), generation: 1)) == "ignore")
        #expect(Self.label(lifecycle.transferState) == "running")
        #expect(Self.label(lifecycle.finish(.failure(Self.failure), generation: 3)) == "finish failed(connectionFailed)")
    }

    /// A run that completed while a pause was being requested still completed.
    @Test func aStoppedRunsSuccessEndsTheTransfer() {
        var paused = Self.lifecycle(in: .paused)
        #expect(Self.label(paused.finish(.success("done"), generation: 1)) == "finish succeeded(done)")
        #expect(Self.label(paused.transferState) == "succeeded(done)")

        var resumed = Self.lifecycle(in: .paused)
        _ = resumed.resume()
        // The resumed run is no longer needed: it is cancelled with the ending.
        #expect(Self.label(resumed.finish(.success("done"), generation: 1)) == "finish succeeded(done), cancelling the run")
        #expect(Self.label(resumed.finish(.success("again"), generation: 3)) == "ignore")
        #expect(Self.label(resumed.transferState) == "succeeded(done)")
    }

    @Test func anOutcomeBeforeTheFirstRunIsIgnored() {
        var lifecycle = Lifecycle()
        #expect(Self.label(lifecycle.finish(.success("done"), generation: 0)) == "ignore")
        #expect(Self.label(lifecycle.finish(.failure(Self.failure), generation: 0)) == "ignore")
        #expect(Self.label(lifecycle.transferState) == "notStarted")
    }

    @Test func finishingTwiceKeepsTheFirstEnding() {
        var lifecycle = Self.lifecycle(in: .running)
        #expect(Self.label(lifecycle.finish(.failure(Self.failure), generation: 1)) == "finish failed(connectionFailed)")
        #expect(Self.label(lifecycle.finish(.success("late"), generation: 1)) == "ignore")
        #expect(Self.label(lifecycle.finish(.failure(.cancelled), generation: 1)) == "ignore")
        #expect(Self.label(lifecycle.transferState) == "failed(connectionFailed)")
    }

    @Test func aCancelledRunsOutcomeIsIgnored() {
        var lifecycle = Self.lifecycle(in: .running)
        _ = lifecycle.cancel()
        #expect(Self.label(lifecycle.finish(.failure(.cancelled), generation: 1)) == "ignore")
        #expect(Self.label(lifecycle.finish(.success("done"), generation: 1)) == "ignore")
        #expect(Self.label(lifecycle.transferState) == "cancelled")
    }

    // MARK: - The public state

    @Test func everyStateMapsToItsTransferState() {
        #expect(Self.lifecycle(in: .notStarted).transferState.phase == .notStarted)
        #expect(Self.lifecycle(in: .queued).transferState.phase == .queued)
        #expect(Self.lifecycle(in: .running).transferState.phase == .running)
        #expect(Self.lifecycle(in: .waitingToRetry).transferState.phase == .waitingToRetry(attempt: 2, delay: .seconds(1)))
        #expect(Self.lifecycle(in: .paused).transferState.phase == .paused)
        #expect(Self.lifecycle(in: .succeeded).transferState.success == "done")
        #expect(Self.lifecycle(in: .failed).transferState.error?.kind == .connectionFailed)
        #expect(Self.lifecycle(in: .cancelled).transferState.phase == .cancelled)
    }

    @Test func aWholeTransferPublishesItsStatesInOrder() {
        var lifecycle = Lifecycle()
        let actions = [
            lifecycle.start(),
            lifecycle.report(.queued, generation: 1),
            lifecycle.report(.running, generation: 1),
            lifecycle.pause(completedBytes: 100),
            lifecycle.finish(.failure(.cancelled), generation: 1),  // the stopped run ends
            lifecycle.resume(),
            lifecycle.report(.running, generation: 1),  // late, from the stopped run
            lifecycle.report(.waitingForAttempt(2, delay: .seconds(1)), generation: 3),
            lifecycle.report(.running, generation: 3),
            lifecycle.finish(.success("done"), generation: 3)
        ]
        #expect(
            actions.map(Self.label) == [
                "startRun(1) running", "publish queued", "publish running", "cancelRun paused(100)", "ignore",
                "startRun(3) running", "ignore", "publish waitingToRetry(2)", "publish running", "finish succeeded(done)"
            ])
    }
}
