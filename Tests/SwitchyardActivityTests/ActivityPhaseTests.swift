import SwitchyardActivity
import SwitchyardCore
import Testing

/// The layers' phases, and how the activity links report becomes one.
@Suite struct ActivityPhaseTests {
    @Test func reportedActivityBecomesTheMatchingPhase() {
        #expect(ActivityPhase(ExchangeActivity.queued) == .queued)
        #expect(ActivityPhase(ExchangeActivity.running) == .running)
        #expect(ActivityPhase(.waitingForAttempt(2, delay: .milliseconds(500))) == .waitingToRetry(attempt: 2, delay: .milliseconds(500)))
        #expect(ActivityPhase(.waitingForAttempt(3, delay: nil)) == .waitingToRetry(attempt: 3, delay: nil))
    }

    @Test func onlyEndingsAreFinalAndOnlyWorkUnderWayIsActive() {
        let phases: [ActivityPhase] = [
            .notStarted, .queued, .running, .waitingToRetry(attempt: 2, delay: nil), .paused, .succeeded, .noData, .failed,
            .cancelled
        ]
        #expect(phases.filter(\.isFinal).map(\.name) == ["succeeded", "noData", "failed", "cancelled"])
        #expect(phases.filter(\.isActive).map(\.name) == ["queued", "running", "waitingToRetry"])
        #expect(ActivityPhase.waitingToRetry(attempt: 2, delay: nil).description.contains("until the hold lifts"))
    }
}
