// Public imports: the lock is inlined into the modules that use it, so its code names pthread_mutex_t.
#if canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#elseif canImport(Darwin)
public import Darwin
#endif

/// A value guarded by a mutex: the lock the built-in plugins keep their shared mutable state
/// behind, for any plugin, interceptor or transport to use the same way.
///
/// A `Lock` holds one value and a `pthread_mutex_t` in a single allocation. ``withLock(_:)`` runs
/// a closure with exclusive access to the value: while one caller is inside, every other caller of
/// the same lock waits. Use it for the small, synchronous state of an interceptor, an observer or a
/// transport — counters, caches, tables of waiters — that many exchanges touch from many tasks.
///
/// ```swift
/// struct CountingInterceptor: Interceptor {
///     private let sent = Lock(0)
///
///     var count: Int { sent.withLock { $0 } }
///
///     func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
///         sent.withLock { $0 += 1 }
///         return try await next(request)
///     }
/// }
/// ```
///
/// ## Why not `Synchronization.Mutex`
///
/// - `Lock` is copyable, so it can be a stored property of a `Sendable` struct such as an
///   ``Interceptor``, or be captured by several closures. `Mutex` is `~Copyable` and must live in
///   a class, an actor or another noncopyable type.
/// - ThreadSanitizer understands it. On Linux `Mutex` hands a contended lock over inside the kernel
///   (a priority-inheritance futex called from uninstrumented runtime code), so ThreadSanitizer
///   sees no ordering between two critical sections and reports every contended access as a race.
///   ThreadSanitizer intercepts `pthread_mutex_lock` and `pthread_mutex_unlock`, so the critical
///   sections of a `Lock` are ordered in its eyes and a report from inside one is a real race.
///
/// ## Guarantees
///
/// - Copies share one value and one mutex: a `Lock` is a reference to its storage, like a class.
///   The value lives until the last copy is gone; the mutex is destroyed with it.
/// - The value is read and written only inside ``withLock(_:)``, with the mutex held, so a `Lock`
///   whose value is `Sendable` is `Sendable` itself and may be shared between tasks and threads.
/// - Waiters are not served in any particular order, and the lock is not recursive: calling
///   ``withLock(_:)`` on the same lock from inside its own closure is a programming error (with a
///   default pthread mutex it deadlocks).
/// - The closure is synchronous. Keep it short — it blocks a thread of the cooperative pool while
///   other callers wait — and do not call out to code that may take the same lock.
public struct Lock<Value> {
    @usableFromInline let storage: LockStorage<Value>

    /// Creates a lock around an initial value.
    /// - Parameter value: The value the lock guards.
    @inlinable
    public init(_ value: consuming Value) {
        storage = LockStorage.make(value)
    }

    /// Runs `body` with exclusive access to the value and returns its result.
    ///
    /// The mutex is held for the whole call of `body` and released when it returns or throws.
    /// - Parameter body: Reads or changes the value in place; it must not call `withLock` on the
    ///   same lock.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, with its type.
    @inlinable
    public func withLock<Result, E: Error>(
        _ body: (inout Value) throws(E) -> Result
    ) throws(E) -> Result {
        try storage.withLock(body)
    }
}

/// Shared between tasks when its value is `Sendable`. Safe because the value is touched only with
/// the mutex held: the storage class reads and writes it solely inside `LockStorage.withLock`,
/// between `pthread_mutex_lock` and `pthread_mutex_unlock` on the mutex of the same allocation, and
/// the mutex itself is touched only through the pthread calls, which are thread-safe by contract.
/// The storage class cannot say so itself, as `ManagedBuffer` is explicitly not `Sendable`.
extension Lock: @unchecked Sendable where Value: Sendable {}

/// The allocation behind a ``Lock``: the value as the header, one `pthread_mutex_t` as the element.
///
/// The value is read and written only inside `withLock`, between `pthread_mutex_lock` and
/// `pthread_mutex_unlock` on the mutex of the same allocation; the mutex itself is only touched
/// through the pthread calls, which are thread-safe by contract.
@usableFromInline
package final class LockStorage<Value>: ManagedBuffer<Value, pthread_mutex_t> {
    /// A new lock around `value`, moved into the allocation (a copy would retain each of its
    /// references once more, and the original release them).
    @inlinable
    static func make(_ value: consuming Value) -> LockStorage<Value> {
        var value = Optional(value)
        let buffer = create(minimumCapacity: 1) { _ in
            guard let moved = value.take() else { preconditionFailure("the factory runs once") }
            return moved
        }
        let storage = unsafeDowncast(buffer, to: LockStorage<Value>.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            let result = pthread_mutex_init(mutex, nil)
            precondition(result == 0, "pthread_mutex_init failed: \(result)")
        }
        return storage
    }

    @inlinable
    func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        // The element's and the header's addresses are stable for the object's lifetime, and `self`
        // is alive for the whole call. The value is changed in place through its address, not the
        // `header` property: an inout access to a class's property costs a run-time exclusivity
        // check per call, and the mutex already makes the access exclusive.
        let mutex = withUnsafeMutablePointerToElements { $0 }
        let value = withUnsafeMutablePointerToHeader { $0 }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }

    /// Destroys the mutex; the value is the buffer's `header`, a stored property that
    /// `ManagedBuffer` destroys itself.
    @inlinable
    deinit {
        withUnsafeMutablePointerToElements { mutex in
            pthread_mutex_destroy(mutex)
            _ = mutex.deinitialize(count: 1)
        }
    }
}
