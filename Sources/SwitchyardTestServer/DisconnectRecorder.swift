import NIOConcurrencyHelpers

/// Remembers which connection served each `?tag=` and whether that connection has closed.
///
/// Thread-safe; shared by all connection handlers of one server. Handlers only touch it for
/// tagged requests, so untagged traffic never takes this lock.
final class DisconnectRecorder: Sendable {
    private enum TagState {
        case open(connection: UInt64)
        case closed
    }

    private struct State {
        var tags: [String: TagState] = [:]
        var tagsByConnection: [UInt64: [String]] = [:]
    }

    private let state = NIOLockedValueBox(State())

    /// Records that `connection` served a request tagged `tag` (re-using a tag re-opens it).
    func record(tag: String, connection: UInt64) {
        state.withLockedValue { state in
            if case .open(connection) = state.tags[tag] { return }  // already tracked on this connection
            state.tags[tag] = .open(connection: connection)
            state.tagsByConnection[connection, default: []].append(tag)
        }
    }

    /// Marks every tag still attributed to `connection` as disconnected.
    func connectionClosed(_ connection: UInt64) {
        state.withLockedValue { state in
            guard let tags = state.tagsByConnection.removeValue(forKey: connection) else { return }
            for tag in tags {
                if case .open(connection) = state.tags[tag] { state.tags[tag] = .closed }
            }
        }
    }

    /// Whether the connection that served `tag` has been observed closed.
    func hasDisconnected(tag: String) -> Bool {
        state.withLockedValue { state in
            if case .closed = state.tags[tag] { return true }
            return false
        }
    }

    /// Polls (every 5 ms) until `tag` is disconnected or `timeout` elapses; `false` on timeout or cancellation.
    func waitForDisconnect(tag: String, timeout: Duration) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            if hasDisconnected(tag: tag) { return true }
            if clock.now >= deadline || Task.isCancelled { return false }
            do {
                try await Task.sleep(for: .milliseconds(5))
            } catch {
                return hasDisconnected(tag: tag)
            }
        }
    }
}
