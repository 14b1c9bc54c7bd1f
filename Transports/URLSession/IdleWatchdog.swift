import SwitchyardCore
import SwitchyardTransportKit

/// Fails the exchanges of one transport that saw no progress for the idle limit
/// (``URLSessionTransport/Configuration/idleTimeout``).
///
/// One task per transport ticks every quarter of the limit, and only while some exchange is
/// watched; a request adds itself to a locked table and leaves it when it ends. (A task and a
/// timer per request cost more than the rest of the transport's own work for a small response.)
///
/// An exchange fails once its progress count stayed the same over four ticks that followed its
/// first tick: at least the limit, at most one and a half of it, after the last progress.
final class IdleWatchdog: Sendable {
    private struct Watched {
        let exchange: URLSessionExchange
        var seen: Int
        /// Ticks since the progress count last changed; `nil` until the exchange's first tick.
        var quietTicks: Int?
    }

    private struct State {
        var watched: [ObjectIdentifier: Watched] = [:]
        var ticking = false
    }

    private let limit: Duration
    private let state = Lock(State())

    /// - Parameter limit: How long an exchange may see no progress.
    init(limit: Duration) {
        self.limit = limit
    }

    /// Watches `exchange` until it ends.
    func watch(_ exchange: URLSessionExchange) {
        let key = ObjectIdentifier(exchange)
        let startsTicking = state.withLock { state in
            state.watched[key] = Watched(exchange: exchange, seen: exchange.progress, quietTicks: nil)
            defer { state.ticking = true }
            return !state.ticking
        }
        if startsTicking { Task { await self.tick() } }
        exchange.onEnd { [weak self] in self?.forget(key) }
    }

    private func forget(_ key: ObjectIdentifier) {
        _ = state.withLock { $0.watched.removeValue(forKey: key) }
    }

    /// Ticks until no exchange is watched, failing the idle ones.
    private func tick() async {
        while true {
            do {
                try await sleepReleasingTimerOnCancel(until: .now.advanced(by: limit / 4))
            } catch {
                state.withLock { $0.ticking = false }
                return
            }
            let idle: [URLSessionExchange]? = state.withLock { state in
                guard !state.watched.isEmpty else {
                    state.ticking = false
                    return nil
                }
                var idle: [URLSessionExchange] = []
                for (key, var watched) in state.watched {
                    let now = watched.exchange.progress
                    if let quiet = watched.quietTicks, now == watched.seen {
                        watched.quietTicks = quiet + 1
                    } else {
                        watched.quietTicks = 0
                    }
                    watched.seen = now
                    if let quiet = watched.quietTicks, quiet >= 4 {
                        idle.append(watched.exchange)
                        state.watched.removeValue(forKey: key)
                    } else {
                        state.watched[key] = watched
                    }
                }
                return idle
            }
            guard let idle else { return }
            for exchange in idle { exchange.fail(IdleTimeout.error(host: exchange.host, limit: limit)) }
        }
    }
}
