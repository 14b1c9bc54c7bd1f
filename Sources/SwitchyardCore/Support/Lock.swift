// Public imports: the lock is inlined into the modules that use it, so its code names pthread_mutex_t.
#if canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#elseif canImport(Darwin)
public import Darwin
#endif

/// A value guarded by a `pthread_mutex_t`: the lock every module of this package uses instead of
/// `Synchronization.Mutex`.
///
/// Why not `Mutex`: on Linux it hands a contended lock over inside the kernel (a priority-inheritance
/// futex called from uninstrumented runtime code), so ThreadSanitizer sees no ordering between two
/// critical sections and reports every contended access as a race. ThreadSanitizer intercepts
/// `pthread_mutex_lock`/`unlock`, so critical sections of this lock are ordered in its eyes and a
/// report from inside one is a real race.
///
/// The value and the mutex live in one allocation.
@usableFromInline
package struct Lock<Value> {
    @usableFromInline let storage: LockStorage<Value>

    /// A lock around `value`.
    @inlinable
    package init(_ value: Value) {
        storage = LockStorage.make(value)
    }

    /// Runs `body` with exclusive access to the value and returns its result.
    @inlinable
    package func withLock<Result, E: Error>(
        _ body: (inout Value) throws(E) -> Result
    ) throws(E) -> Result {
        try storage.withLock(body)
    }
}

/// Shared between tasks when its value is `Sendable`: the value is touched only with the mutex held
/// (see ``LockStorage``). The storage class cannot say so itself, as `ManagedBuffer` is explicitly
/// not `Sendable`.
extension Lock: @unchecked Sendable where Value: Sendable {}

/// The allocation behind a ``Lock``: the value as the header, one `pthread_mutex_t` as the element.
///
/// The value is read and written only inside `withLock`, between `pthread_mutex_lock` and
/// `pthread_mutex_unlock` on the mutex of the same allocation; the mutex itself is only touched
/// through the pthread calls, which are thread-safe by contract.
@usableFromInline
package final class LockStorage<Value>: ManagedBuffer<Value, pthread_mutex_t> {
    @inlinable
    static func make(_ value: Value) -> LockStorage<Value> {
        let buffer = create(minimumCapacity: 1) { _ in value }
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
        // The element's address is stable for the object's lifetime, and `self` is alive for the
        // whole call; the value is changed in place through the buffer's `header` property.
        let mutex = withUnsafeMutablePointerToElements { $0 }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&header)
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
