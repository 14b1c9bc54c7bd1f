import SwitchyardConformance
import SwitchyardTestSupport
import Testing

/// The test suites' own waits: they end on the awaited event or on cancellation, never by spinning.
///
/// The limit is far above what the tests need and far below the waits' own hour: in the parallel pass
/// of a suite on two busy cores a task may wait over a minute for a cooperative thread (seen), and
/// that says nothing about the waits.
@Suite(.timeLimit(.minutes(10))) struct TestWaitingTests {
    /// A wait whose test was cancelled (its time limit passed, say) returns with `false` instead of
    /// polling until its own timeout of an hour.
    @Test func aCancelledWaitReturnsFalseAtOnce() async {
        let waiting = Task { await eventually(timeout: .seconds(3_600)) { false } }
        waiting.cancel()
        #expect(await waiting.value == false)
        let stalled = Task { await eventually(stallTimeout: .seconds(3_600), progressing: { 0 }) { false } }
        stalled.cancel()
        #expect(await stalled.value == false)
    }

    @Test func theProbeSeesItsTaskWaitAfterTheMark() async throws {
        let probe = SuspensionProbe()
        let (gate, opener) = AsyncStream.makeStream(of: Void.self)
        let task = probe.task {
            probe.mark()
            for await _ in gate { break }
        }
        #expect(await probe.suspendedAfterMark())
        opener.finish()
        try await task.value
    }

    @Test func aTaskThatEndsWithoutWaitingIsNotSeenWaiting() async throws {
        let probe = SuspensionProbe()
        try await probe.task { probe.mark() }.value
        #expect(await probe.suspendedAfterMark() == false)
    }
}
