import Synchronization

/// The `/gate/{key}` route's state: requests held per key until the test releases them, the order
/// they arrived in, and how many were in progress at once.
final class Gates: Sendable {
    private struct Gate {
        var held: [@Sendable () -> Void] = []
        var arrivals: [String] = []
        var active = 0
        var maxActive = 0
        var isOpen = false
    }

    private let gates = Mutex<[String: Gate]>([:])

    /// A request with `id` arrived for `key`; `answer` runs when the gate lets it through (at once
    /// when the gate is open).
    func arrive(key: String, id: String, answer: @escaping @Sendable () -> Void) {
        let runNow = gates.withLock { gates in
            var gate = gates[key, default: Gate()]
            gate.arrivals.append(id)
            gate.active += 1
            gate.maxActive = max(gate.maxActive, gate.active)
            if !gate.isOpen { gate.held.append(answer) }
            gates[key] = gate
            return gate.isOpen
        }
        if runNow { answer() }
    }

    /// A request for `key` was answered (or its connection closed while held).
    func leave(key: String) {
        gates.withLock { $0[key]?.active -= 1 }
    }

    /// Lets the oldest `count` held requests through; `nil` opens the gate for good.
    func release(key: String, count: Int?) {
        let answers = gates.withLock { gates -> [@Sendable () -> Void] in
            var gate = gates[key, default: Gate()]
            let taken = count.map { min($0, gate.held.count) } ?? gate.held.count
            if count == nil { gate.isOpen = true }
            let answers = Array(gate.held.prefix(taken))
            gate.held.removeFirst(taken)
            gates[key] = gate
            return answers
        }
        for answer in answers { answer() }
    }

    /// Requests held now, ids in arrival order, and the most in progress at once, for `key`.
    func figures(key: String) -> (held: Int, arrivals: [String], maxActive: Int) {
        gates.withLock { gates in
            let gate = gates[key] ?? Gate()
            return (gate.held.count, gate.arrivals, gate.maxActive)
        }
    }
}
