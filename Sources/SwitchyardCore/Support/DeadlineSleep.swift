import Dispatch

/// Suspends until `deadline`, or throws `CancellationError` as soon as the task is cancelled, and
/// then releases its timer at once.
///
/// `Task.sleep` on Linux keeps a cancelled sleep's timer (and the sleeping task's memory) until the
/// deadline would have passed, so a timer per request that usually loses its race (a deadline, a
/// watchdog) piles up: a minute's deadlines at a thousand requests a second hold tens of megabytes.
/// This sleep is a dispatch timer that a cancellation cancels.
///
/// - Parameter deadline: When to wake up.
/// - Throws: `CancellationError` when the task is cancelled first (at once if it already is).
public func sleepReleasingTimerOnCancel(until deadline: ContinuousClock.Instant) async throws {
    let sleep = CancellableSleep()
    try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            sleep.start(until: deadline, continuation)
        }
    } onCancel: {
        sleep.cancel()
    }
}

/// The timer and continuation of one ``sleepReleasingTimerOnCancel(until:)``: whichever of the timer
/// and the cancellation comes first resumes the continuation; the other finds nothing left to do.
private final class CancellableSleep: Sendable {
    private enum State {
        case idle
        case sleeping(CheckedContinuation<Void, any Error>, any DispatchSourceTimer)
        case cancelled
        case done
    }

    /// `DispatchSourceTimer` is not `Sendable` in the overlay; it is only touched under this lock
    /// (`schedule`, `resume`, `cancel` are thread-safe in libdispatch anyway).
    private struct Guarded: @unchecked Sendable {
        var state: State = .idle
    }

    private let guarded = Lock(Guarded())

    func start(until deadline: ContinuousClock.Instant, _ continuation: CheckedContinuation<Void, any Error>) {
        let remaining = ContinuousClock.now.duration(to: deadline)
        let (seconds, attoseconds) = remaining.components
        let nanoseconds = max(0, seconds) * 1_000_000_000 + max(0, attoseconds / 1_000_000_000)
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds)), leeway: .milliseconds(1))
        timer.setEventHandler { [self] in finish(cancelled: false) }
        let cancelledFirst = guarded.withLock { guarded -> Bool in
            if case .cancelled = guarded.state { return true }
            guarded.state = .sleeping(continuation, timer)
            return false
        }
        if cancelledFirst {
            // A source must be activated before it is released; cancelled first, it never fires.
            timer.cancel()
            timer.resume()
            continuation.resume(throwing: CancellationError())
            return
        }
        // Activated only once the state holds it: the handler cannot run before.
        timer.resume()
    }

    func cancel() { finish(cancelled: true) }

    private func finish(cancelled: Bool) {
        let taken = guarded.withLock { guarded -> (CheckedContinuation<Void, any Error>, any DispatchSourceTimer)? in
            switch guarded.state {
            case .idle:
                if cancelled { guarded.state = .cancelled }
                return nil
            case .sleeping(let continuation, let timer):
                guarded.state = .done
                return (continuation, timer)
            case .cancelled, .done:
                return nil
            }
        }
        guard let (continuation, timer) = taken else { return }
        timer.cancel()
        if cancelled { continuation.resume(throwing: CancellationError()) } else { continuation.resume() }
    }
}
