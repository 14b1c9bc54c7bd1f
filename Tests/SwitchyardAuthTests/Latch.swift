import SwitchyardCore

/// A gate tasks wait at until the test opens it; counts arrivals so the test can wait for them.
final class Latch: Sendable {
    private struct State {
        var isOpen = false
        var arrivals = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Lock(State())

    /// How many tasks have arrived so far.
    var arrivals: Int { state.withLock { $0.arrivals } }

    /// Waits until the latch is open (returns at once when it is).
    func arriveAndWait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                state.arrivals += 1
                if !state.isOpen { state.waiting.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    /// Lets every waiting and later task through.
    func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}
