import Switchyard
import SwitchyardConformance
import SwitchyardTestSupport
import Synchronization
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

    /// "At once" without a timing assertion: the sleep returns normally (no error) while a hang guard
    /// a minute long, far beyond any scheduling delay, still runs; a past deadline taken for a far
    /// one (or for none) would sleep through the guard and be cancelled.
    @Test func aDeadlineInThePastReturnsAtOnce() async throws {
        let deadline = ContinuousClock.now.advanced(by: .seconds(-1))
        let returned = Returned()
        let sleeper = Task {
            try await sleepReleasingTimerOnCancel(until: deadline)
            returned.mark()
        }
        let wokeUp = await eventually(timeout: .seconds(60)) { returned.value }
        if !wokeUp { sleeper.cancel() }
        #expect(wokeUp, "a sleep until a deadline a second in the past was still sleeping a minute later")
        try await sleeper.value
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

/// Whether a task got past its sleep, set from that task and read by the test's wait.
private final class Returned: Sendable {
    private let flag = Atomic<Bool>(false)

    /// The sleep returned.
    func mark() { flag.store(true, ordering: .releasing) }

    /// Whether ``mark()`` was called.
    var value: Bool { flag.load(ordering: .acquiring) }
}
