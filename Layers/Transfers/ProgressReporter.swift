import SwitchyardCore

/// Turns byte counts into a throttled `AsyncStream` of ``TransferProgress``: at most one update per
/// ``minimumInterval`` (about 20 a second), and always a final one when the transfer ends.
///
/// Counting is a lock and, once per chunk, a clock read; nothing is yielded between two updates.
/// Bytes counted inside the interval are reported when it has passed even if no more arrive (a
/// stalled or paused transfer still shows its latest count): one short-lived task per interval
/// at most.
/// Safe from any thread. The stream keeps only the newest updates if its reader falls behind, so
/// a slow reader (a busy main actor) never slows the transfer and still sees the final update.
final class ProgressReporter: Sendable {
    /// The shortest time between two updates.
    static let minimumInterval: Duration = .milliseconds(50)

    private struct State {
        var completed: Int64 = 0
        var expected: Int64?
        var lastUpdate: ContinuousClock.Instant?
        var lastUpdateBytes: Int64 = 0
        var startedAt: ContinuousClock.Instant?
        var startBytes: Int64 = 0
        var finished = false
        var flushScheduled = false
    }

    /// The updates.
    let updates: AsyncStream<TransferProgress>
    private let continuation: AsyncStream<TransferProgress>.Continuation
    private let state = Lock(State())

    /// Bytes counted so far.
    var completedBytes: Int64 { state.withLock { $0.completed } }

    init() {
        (updates, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(32))
    }

    deinit {
        continuation.finish()
    }

    /// (Re)starts counting from `completed` bytes towards `expected`, and reports that at once.
    func begin(completed: Int64, expected: Int64?) {
        let now = ContinuousClock.now
        state.withLock { state in
            guard !state.finished else { return }
            state.completed = completed
            state.expected = expected
            if state.startedAt == nil {
                state.startedAt = now
                state.startBytes = completed
            }
            state.lastUpdate = now
            state.lastUpdateBytes = completed
            continuation.yield(TransferProgress(completedBytes: completed, expectedBytes: expected, bytesPerSecond: 0))
        }
    }

    /// Counts `count` more bytes; reports if the last update is at least ``minimumInterval`` old.
    func advance(by count: Int) {
        let now = ContinuousClock.now
        state.withLock { state in
            guard !state.finished else { return }
            state.completed += Int64(count)
            let last = state.lastUpdate ?? now
            let elapsed = last.duration(to: now)
            guard state.lastUpdate == nil || elapsed >= Self.minimumInterval else {
                if !state.flushScheduled {
                    state.flushScheduled = true
                    let wait = Self.minimumInterval - elapsed
                    Task { [weak self] in
                        try? await Task.sleep(for: wait)
                        self?.flush()
                    }
                }
                return
            }
            let rate = Self.rate(bytes: state.completed - state.lastUpdateBytes, over: elapsed)
            state.lastUpdate = now
            state.lastUpdateBytes = state.completed
            continuation.yield(TransferProgress(completedBytes: state.completed, expectedBytes: state.expected, bytesPerSecond: rate))
        }
    }

    /// Sets the count to `completed` (bytes a transport reports as sent, which may also go back to
    /// a server's offset); reports like ``advance(by:)``.
    func record(completed: Int64) {
        let delta = state.withLock { state -> Int64 in
            guard !state.finished else { return 0 }
            if completed < state.completed {
                state.completed = completed
                state.lastUpdateBytes = min(state.lastUpdateBytes, completed)
                return 0
            }
            return completed - state.completed
        }
        if delta > 0 { advance(by: Int(clamping: delta)) }
    }

    /// Reports bytes counted since the last update, if any (the end of a throttling interval).
    private func flush() {
        let now = ContinuousClock.now
        state.withLock { state in
            state.flushScheduled = false
            guard !state.finished, state.completed != state.lastUpdateBytes else { return }
            let rate = Self.rate(bytes: state.completed - state.lastUpdateBytes, over: (state.lastUpdate ?? now).duration(to: now))
            state.lastUpdate = now
            state.lastUpdateBytes = state.completed
            continuation.yield(TransferProgress(completedBytes: state.completed, expectedBytes: state.expected, bytesPerSecond: rate))
        }
    }

    /// Reports the final update (with the average rate) and ends the stream; later calls do nothing.
    func finish() {
        let now = ContinuousClock.now
        state.withLock { state in
            guard !state.finished else { return }
            state.finished = true
            let rate = Self.rate(bytes: state.completed - state.startBytes, over: (state.startedAt ?? now).duration(to: now))
            continuation.yield(
                TransferProgress(
                    completedBytes: state.completed, expectedBytes: state.expected,
                    bytesPerSecond: rate, isFinal: true))
        }
        continuation.finish()
    }

    private static func rate(bytes: Int64, over duration: Duration) -> Double {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds > 0 ? Double(bytes) / seconds : 0
    }
}
