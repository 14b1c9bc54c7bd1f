import NIOCore
import Synchronization

/// The `/hold/{key}/{n}` route's gates: requests for a key wait until the test releases it
/// (``LoopbackServer/release(key:)``), then all answer; later requests for a released key answer
/// at once. Event-driven: no timer, no polling.
final class HeldResponses: Sendable {
    private struct Gate {
        var released = false
        var waiting: [EventLoopPromise<Void>] = []
    }

    private let gates = Mutex<[String: Gate]>([:])

    /// A future that succeeds on `eventLoop` when `key` is released (at once if it already is).
    func wait(key: String, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        let promise = eventLoop.makePromise(of: Void.self)
        let released = gates.withLock { gates in
            if gates[key]?.released == true { return true }
            gates[key, default: Gate()].waiting.append(promise)
            return false
        }
        if released { promise.succeed() }
        return promise.futureResult
    }

    /// Releases every request waiting on `key`, and those that come later.
    func release(key: String) {
        let waiting = gates.withLock { gates in
            gates[key, default: Gate()].released = true
            defer { gates[key]?.waiting = [] }
            return gates[key]?.waiting ?? []
        }
        for promise in waiting { promise.succeed() }
    }
}
