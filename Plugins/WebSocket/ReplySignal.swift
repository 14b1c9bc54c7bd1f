import Synchronization

/// A one-time event that tasks wait for with a timeout: the server's pong, or the end of the
/// connection. A wait ends `true` when the event fires, `false` at the timeout or on cancellation.
final class ReplySignal: Sendable {
    private struct State {
        var fired = false
        var waiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Fires the event: every waiter, and every later one, gets `true`.
    func fire() {
        let waiters = state.withLock { state in
            state.fired = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    /// Whether the event has fired.
    var hasFired: Bool { state.withLock(\.fired) }

    /// Waits until the event fires or `timeout` passes.
    func wait(timeout: Duration) async -> Bool {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            self.expire(id)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let fired = state.withLock { state in
                    if !state.fired { state.waiters[id] = continuation }
                    return state.fired
                }
                if fired { continuation.resume(returning: true) }
            }
        } onCancel: {
            expire(id)
        }
    }

    private func expire(_ id: UInt64) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: false)
    }
}
