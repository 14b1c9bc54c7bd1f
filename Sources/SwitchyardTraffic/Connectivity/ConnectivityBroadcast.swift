import SwitchyardCore

/// A status and the streams that follow it: the common core of the shipped connectivity sources.
final class ConnectivityBroadcast: Sendable {
    private struct State {
        var status: ConnectivityStatus
        var continuations: [UInt64: AsyncStream<ConnectivityStatus>.Continuation] = [:]
        var nextID: UInt64 = 0
    }

    private let state: Lock<State>
    /// Called with the number of subscribers after each subscribe and unsubscribe (sources that
    /// poll start and stop their polling with it), under the lock: it must not call back into
    /// this broadcast.
    private let subscribersChanged: @Sendable (Int) -> Void

    init(_ status: ConnectivityStatus, subscribersChanged: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.state = Lock(State(status: status))
        self.subscribersChanged = subscribersChanged
    }

    /// The last status set.
    var status: ConnectivityStatus { state.withLock { $0.status } }

    /// Sets the status and, when it changed, hands it to every stream.
    func update(_ status: ConnectivityStatus) {
        state.withLock { state in
            guard state.status != status else { return }
            state.status = status
            for continuation in state.continuations.values { continuation.yield(status) }
        }
    }

    /// A stream of the current status and every later change.
    func changes() -> AsyncStream<ConnectivityStatus> {
        let (stream, continuation) = AsyncStream<ConnectivityStatus>.makeStream(bufferingPolicy: .bufferingNewest(1))
        // `subscribersChanged` runs under the lock, so that the counts it sees arrive in order (a
        // poller is never stopped by a late "0" while a new stream is open).
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.continuations[state.nextID] = continuation
            continuation.yield(state.status)
            subscribersChanged(state.continuations.count)
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            state.withLock { state in
                state.continuations[id] = nil
                subscribersChanged(state.continuations.count)
            }
        }
        return stream
    }

    /// Ends every stream (the source is going away).
    func finish() {
        let continuations = state.withLock { state in
            defer { state.continuations.removeAll() }
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}
