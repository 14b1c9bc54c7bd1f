import Switchyard
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

/// `sleepReleasingTimerOnCancel(until:)`, the timer behind `withDeadline` and the URLSession
/// transport's deadline: it wakes no earlier than its deadline, a cancellation ends it at once, and a
/// cancelled timer's memory is released then, not when its deadline would have passed.
@Suite(.timeLimit(.minutes(2))) struct DeadlineSleepTests {
    @Test func itWakesNoEarlierThanItsDeadline() async throws {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(30))
        try await sleepReleasingTimerOnCancel(until: deadline)
        #expect(ContinuousClock.now >= deadline)
    }

    @Test func aDeadlineInThePastReturnsAtOnce() async throws {
        try await sleepReleasingTimerOnCancel(until: ContinuousClock.now.advanced(by: .seconds(-1)))
    }

    @Test func cancellingTheTaskEndsTheSleepWithCancellationError() async throws {
        let sleeper = Task { try await sleepReleasingTimerOnCancel(until: .now.advanced(by: .seconds(3600))) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    @Test func anAlreadyCancelledTaskDoesNotSleep() async throws {
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await sleepReleasingTimerOnCancel(until: .now.advanced(by: .seconds(3600)))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    @Test func withDeadlineStillTimesOut() async throws {
        let error = await #expect(throws: SwitchyardError.self) {
            try await withDeadline(.now.advanced(by: .milliseconds(20))) {
                try await sleepReleasingTimerOnCancel(until: .now.advanced(by: .seconds(3600)))
            }
        }
        #expect(error?.kind == .timeout)
    }

    /// 20,000 exchanges that each beat an hour-long deadline: with `Task.sleep` each would leave its
    /// timer and sleeping task (about 700 bytes) for the hour, 14 MB in all.
    @Test func cancelledDeadlineTimersAreReleasedInBoundedMemory() async throws {
        var before = 0
        try #require(SoakProcessFigures.heapBytesInUse() > 0, "the C allocator reports the heap in use (glibc)")
        // A first round fills the runtime's and libdispatch's caches; the second is measured.
        for round in 0..<2 {
            if round == 1 { before = SoakProcessFigures.heapBytesInUse() }
            for _ in 0..<20_000 {
                _ = try await withDeadline(.now.advanced(by: .seconds(3600))) { 1 }
            }
        }
        // Cancelled dispatch sources are disposed of asynchronously: wait for it.
        var growth = SoakProcessFigures.heapBytesInUse() - before
        let released = await eventually {
            growth = SoakProcessFigures.heapBytesInUse() - before
            return growth < 4 << 20
        }
        print("20,000 deadlines beaten: heap in use grew by \(growth >> 10) KiB")
        #expect(released, "heap in use grew by \(growth >> 10) KiB")
    }
}
