import SwitchyardCore

/// Fires the timeouts of a shared state's operations with one sleeping task for all of them, instead
/// of a timer per operation: a store that makes hundreds of round trips a second (a body streaming
/// into the cache, a row per 256 KiB) would otherwise keep hundreds of cancelled timers alive.
///
/// Every deadline is "now plus the same bound", so a new one is never earlier than those armed
/// before it: the sleeper sleeps until the oldest armed deadline, fires what has expired, and ends
/// when nothing is armed.
final class OperationWatchdog: Sendable {
    private struct State {
        var armed: [UInt64: (deadline: ContinuousClock.Instant, fire: @Sendable () -> Void)] = [:]
        var order: [UInt64] = []
        var nextID: UInt64 = 0
        var isSleeping = false
    }

    private let state = Lock(State())

    /// Calls `fire` at `deadline` unless ``disarm(_:)`` comes first.
    /// - Returns: The id to disarm it with.
    func arm(_ deadline: ContinuousClock.Instant, fire: @escaping @Sendable () -> Void) -> UInt64 {
        let (id, startsSleeper) = state.withLock { state in
            state.nextID += 1
            state.armed[state.nextID] = (deadline, fire)
            state.order.append(state.nextID)
            defer { state.isSleeping = true }
            return (state.nextID, !state.isSleeping)
        }
        if startsSleeper { Task.detached { [self] in await sleep() } }
        return id
    }

    /// Forgets the timeout `id` (its operation finished).
    func disarm(_ id: UInt64) {
        state.withLock { _ = $0.armed.removeValue(forKey: id) }
    }

    private func sleep() async {
        while true {
            let now = ContinuousClock.now
            let (expired, next) = state.withLock { state -> ([@Sendable () -> Void], ContinuousClock.Instant?) in
                var expired: [@Sendable () -> Void] = []
                while let first = state.order.first {
                    guard let entry = state.armed[first] else {
                        state.order.removeFirst()
                        continue
                    }
                    guard entry.deadline <= now else { return (expired, entry.deadline) }
                    expired.append(entry.fire)
                    state.armed[first] = nil
                    state.order.removeFirst()
                }
                state.isSleeping = false
                return (expired, nil)
            }
            for fire in expired { fire() }
            guard let next else { return }
            try? await Task.sleep(until: next, clock: .continuous)
        }
    }
}
