#if canImport(FoundationNetworking)
import Dispatch
import Foundation
import FoundationNetworking

/// The delegate queue of the sessions the transport makes on Linux: the callbacks run one at a time
/// in submission order on a serial dispatch queue, and the thread that submits one waits while
/// ``limit`` are pending. That wait is the back-pressure FoundationNetworking lacks.
///
/// FoundationNetworking hands each piece of body libcurl reads (16 KiB at most) to the delegate
/// with `delegateQueue.addOperation { … }`, called on the session's work queue from inside
/// libcurl's write callback, and never waits for it. With a plain `OperationQueue` nothing bounds
/// how far libcurl runs ahead of the delegate, and a long download's memory followed the longest
/// backlog (figures in `Benchmarks/results/2026-11-27-urlsession-long-transfer-memory.md`). Here the write callback
/// waits instead, so libcurl stops reading the socket and TCP flow control slows the server. The
/// wait is for the delegate only, never for the app's reader: the transport keeps unread bytes in
/// a ``ResponseBodyBuffer`` (on disk beyond its memory limit), so no callback blocks on the reader.
///
/// A callback that itself waits for the session's work queue (`URLSessionTask.cancel()` does)
/// while the work queue waits here would deadlock. The transport cancels from callbacks
/// asynchronously (``URLSessionTaskHandle``, ``SessionRouter``); as a safety net for any such wait
/// inside FoundationNetworking, a submitter stops waiting once the queue has finished nothing for
/// ``stallTimeout``, and does not wait again until it finishes something.
///
/// Only `addOperation(_:)` with a closure is routed here, which is what FoundationNetworking uses;
/// an `Operation` added to this queue runs as on any `OperationQueue`, unordered with the callbacks.
final class BoundedDelegateQueue: OperationQueue, @unchecked Sendable {
    // `@unchecked Sendable` (as `OperationQueue` is): every stored property of this subclass is a
    // `let` of a `Sendable` type, and `Backlog` guards its own mutable state with its condition.

    /// Pending callbacks at which a submitter waits: 64 pieces of at most 16 KiB, about 1 MiB.
    static let defaultLimit = 64
    /// How long a submitter waits for a queue that finishes nothing before going on without waiting.
    static let defaultStallTimeout: TimeInterval = 0.25

    /// Pending callbacks (submitted, not yet finished) at which a submitter waits.
    let limit: Int
    private let serial = DispatchQueue(label: "Switchyard.URLSessionTransport.delegate")
    private let backlog: Backlog

    /// Set on ``serial``: a callback is running when `DispatchQueue.getSpecific(key:)` finds it.
    private static let runningKey = DispatchSpecificKey<Bool>()

    /// Whether the caller runs on the delegate queue of a session the transport made.
    static var isRunningCallback: Bool { DispatchQueue.getSpecific(key: runningKey) == true }

    /// A queue whose submitters wait while `limit` callbacks are pending.
    /// - Parameters:
    ///   - limit: Pending callbacks at which a submitter waits (at least 2).
    ///   - stallTimeout: How long a submitter waits for a queue that finishes nothing.
    init(limit: Int = defaultLimit, stallTimeout: TimeInterval = defaultStallTimeout) {
        self.limit = max(limit, 2)
        self.backlog = Backlog(limit: self.limit, stallTimeout: stallTimeout)
        super.init()
        serial.setSpecific(key: Self.runningKey, value: true)
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        backlog.enter()
        serial.async { [backlog] in
            block()
            backlog.leave()
        }
    }

    /// The callbacks pending now, the most ever pending, and how often a submitter stopped waiting
    /// for a queue that finished nothing (for tests).
    var statistics: (pending: Int, highWater: Int, stalls: Int) { backlog.statistics }
}

/// The counters of a ``BoundedDelegateQueue``, guarded by a condition.
private final class Backlog: @unchecked Sendable {
    // `@unchecked Sendable`: the `var`s are read and written only between `condition.lock()` and
    // `condition.unlock()`; the `let`s are constants.

    private let condition = NSCondition()
    private let limit: Int
    /// A waiting submitter resumes once the backlog is down to half the limit, so that it does not
    /// wake up for every single callback.
    private let resumeAt: Int
    private let stallTimeout: TimeInterval
    private var pending = 0
    private var finished = 0
    /// `finished` when a submitter last stopped waiting for lack of progress (-1: never). While
    /// nothing more has finished, submitters do not wait.
    private var stalledAt = -1
    private var waiters = 0
    private var highWater = 0
    private var stalls = 0

    init(limit: Int, stallTimeout: TimeInterval) {
        self.limit = limit
        self.resumeAt = limit / 2
        self.stallTimeout = stallTimeout
    }

    var statistics: (pending: Int, highWater: Int, stalls: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (pending, highWater, stalls)
    }

    /// Counts a submission, first waiting while `limit` callbacks are pending and the queue moves.
    func enter() {
        condition.lock()
        defer { condition.unlock() }
        if pending >= limit, stalledAt != finished {
            var seen = finished
            waiters += 1
            while pending > resumeAt {
                if condition.wait(until: Date(timeIntervalSinceNow: stallTimeout)) { continue }
                if finished == seen {
                    stalledAt = finished  // stuck (or starved): go on, and do not wait until it moves
                    stalls += 1
                    break
                }
                seen = finished
            }
            waiters -= 1
        }
        pending += 1
        highWater = max(highWater, pending)
    }

    /// Counts a finished callback; wakes waiting submitters once the backlog is down to half.
    func leave() {
        condition.lock()
        defer { condition.unlock() }
        pending -= 1
        finished &+= 1
        if waiters > 0, pending <= resumeAt { condition.broadcast() }
    }
}
#endif
