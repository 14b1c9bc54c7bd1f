#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking

/// The delegate queue of the sessions the transport makes on Linux: each callback runs at once, on
/// the thread that submits it.
///
/// FoundationNetworking submits every delegate callback with `delegateQueue.addOperation { … }` from
/// the session's work queue, a serial queue (body pieces from inside libcurl's write callback), and
/// never waits for it. Run there, the callbacks keep their order and cost no hand-over: through an
/// `OperationQueue`, each of a request's callbacks (head, body, end) first woke another thread,
/// and libcurl could run any distance ahead of the delegate (figures in
/// `Benchmarks/results/2026-11-27-urlsession-long-transfer-memory.md`). Here libcurl reads on only
/// once the callback has taken the piece. The callbacks never wait for the app's reader: the
/// transport keeps unread bytes in a ``ResponseBodyBuffer``, on disk beyond its memory limit.
///
/// A callback must not wait for the session's work queue — `URLSessionTask.cancel()` does, which on
/// the work queue itself traps (`dispatch_sync` on the current queue). Code a callback reaches
/// cancels from another thread when ``isRunningCallback`` (``URLSessionTaskHandle``,
/// ``SessionRouter``).
///
/// Only `addOperation(_:)` with a closure runs inline, which is what FoundationNetworking uses; an
/// `Operation` added to this queue runs as on any `OperationQueue`.
final class InlineDelegateQueue: OperationQueue, @unchecked Sendable {
    // `@unchecked Sendable` (as `OperationQueue` is): this subclass stores nothing of its own.

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        let outer = pthread_getspecific(Self.runningKey)
        pthread_setspecific(Self.runningKey, Self.running)
        defer { pthread_setspecific(Self.runningKey, outer) }
        block()
    }

    /// Whether the caller runs inside a callback of a session the transport made.
    static var isRunningCallback: Bool { pthread_getspecific(runningKey) != nil }

    /// The thread-specific mark of a running callback: ``running`` while one runs, otherwise `nil`.
    private static let runningKey: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left for the URLSession transport")
        return key
    }()

    /// Any pointer that is not `nil`: it is only compared with `nil`.
    private static var running: UnsafeRawPointer? { UnsafeRawPointer(bitPattern: 1) }
}
#endif
