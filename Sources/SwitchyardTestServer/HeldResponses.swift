import NIOConcurrencyHelpers
import NIOCore

/// Requests held by the server until the test lets them through — the `/hold/{key}/{n}` and
/// `/gate/{key}` routes — with, per key, the order they arrived in and how many were in progress
/// at once. Event-driven: no timer, no polling.
final class HeldResponses: Sendable {
    private struct Gate {
        var isOpen = false
        var waiting: [EventLoopPromise<Void>] = []
        var arrivals: [String] = []
        var active = 0
        var maxActive = 0
    }

    private let gates = NIOLockedValueBox<[String: Gate]>([:])

    /// Records a request with `id` for `key`, and returns a future that succeeds on `eventLoop` when
    /// the test lets it through (at once once the key is open). Call ``answered(key:)`` when it is.
    func wait(key: String, id: String, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        let promise = eventLoop.makePromise(of: Void.self)
        let isOpen = gates.withLockedValue { gates in
            var gate = gates[key, default: Gate()]
            gate.arrivals.append(id)
            gate.active += 1
            gate.maxActive = max(gate.maxActive, gate.active)
            if !gate.isOpen { gate.waiting.append(promise) }
            gates[key] = gate
            return gate.isOpen
        }
        if isOpen { promise.succeed() }
        return promise.futureResult
    }

    /// A request for `key` is being answered.
    func answered(key: String) {
        gates.withLockedValue { $0[key]?.active -= 1 }
    }

    /// Lets the oldest `count` held requests for `key` through; `nil` lets all through and opens the
    /// key for good (later requests answer at once).
    func release(key: String, count: Int?) {
        let released = gates.withLockedValue { gates -> [EventLoopPromise<Void>] in
            var gate = gates[key, default: Gate()]
            let taken = count.map { min($0, gate.waiting.count) } ?? gate.waiting.count
            if count == nil { gate.isOpen = true }
            let released = Array(gate.waiting.prefix(taken))
            gate.waiting.removeFirst(taken)
            gates[key] = gate
            return released
        }
        for promise in released { promise.succeed() }
    }

    /// Requests held now, ids in arrival order, and the most in progress at once, for `key`.
    func figures(key: String) -> (held: Int, arrivals: [String], maxActive: Int) {
        gates.withLockedValue { gates in
            let gate = gates[key] ?? Gate()
            return (gate.waiting.count, gate.arrivals, gate.maxActive)
        }
    }
}
