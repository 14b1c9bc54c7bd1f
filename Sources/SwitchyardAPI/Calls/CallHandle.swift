import HTTPTypes
import Switchyard
import Synchronization

/// One call of an endpoint: start it, cancel it from anywhere, await its value, or follow its
/// ``CallState``.
///
/// ```swift
/// let handle = api.prepare(profile)      // .notStarted
/// handle.start()                         // .running
/// handle.cancel()                        // .cancelled: the exchange stops on the wire
/// ```
///
/// - ``cancel()`` before ``start()``: the call never touches the wire.
/// - ``cancel()`` while queued, in flight, or waiting between retries: the chain stops the
///   exchange (the transport closes the connection) and the state becomes ``CallState/cancelled``.
/// - Awaiting ``value``, ``response`` or ``result()`` starts a call that has not started, and
///   cancelling the awaiting task cancels the call.
public final class CallHandle<Value: Sendable>: Sendable {
    private struct Store {
        var state: CallState<Value> = .notStarted
        var task: Task<Void, Never>?
        var waiters: [CheckedContinuation<CallState<Value>, Never>] = []
        var observers: [Int: AsyncStream<CallState<Value>>.Continuation] = [:]
        var nextObserver = 0
    }

    private let store = Mutex(Store())
    private let operation: @Sendable () async -> CallState<Value>

    /// Creates a handle that runs `operation` when started.
    /// - Parameter operation: Performs the call and returns its final state.
    public init(_ operation: @escaping @Sendable () async -> CallState<Value>) {
        self.operation = operation
    }

    deinit {
        store.withLock { $0.task?.cancel() }
    }

    /// The current state.
    public var state: CallState<Value> { store.withLock { $0.state } }

    /// The current state, then every change until the final one; each iteration gets its own stream.
    public var states: AsyncStream<CallState<Value>> {
        AsyncStream(bufferingPolicy: .unbounded) { continuation in
            let id: Int? = store.withLock { store in
                continuation.yield(store.state)
                guard !store.state.isFinal else { return nil }
                let id = store.nextObserver
                store.nextObserver += 1
                store.observers[id] = continuation
                return id
            }
            guard let id else { return continuation.finish() }
            continuation.onTermination = { [weak self] _ in
                _ = self?.store.withLock { $0.observers.removeValue(forKey: id) }
            }
        }
    }

    /// Starts the call; does nothing if it has started or ended.
    public func start() {
        store.withLock { store in
            guard case .notStarted = store.state else { return }
            store.state = .running
            for observer in store.observers.values { observer.yield(.running) }
            store.task = Task { [operation] in
                let final = await operation()
                self.finish(final)
            }
        }
    }

    /// Cancels the call: before it starts (it then never runs) or while it runs. Does nothing
    /// once it has ended. Safe from any thread, any number of times.
    public func cancel() {
        let task: Task<Void, Never>? = store.withLock { store in
            switch store.state {
            case .notStarted:
                return nil
            case .running:
                return store.task
            default:
                return nil
            }
        }
        if let task {
            task.cancel()
        } else if case .notStarted = state {
            finish(.cancelled)
        }
    }

    /// Waits for the final state, starting the call if needed.
    /// - Returns: The final state.
    public func result() async -> CallState<Value> {
        start()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let final: CallState<Value>? = store.withLock { store in
                    if store.state.isFinal { return store.state }
                    store.waiters.append(continuation)
                    return nil
                }
                if let final { continuation.resume(returning: final) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The value with its response, starting the call if needed.
    /// - Throws: The call's error; `SwitchyardError.Kind.cancelled` when cancelled;
    ///   `SwitchyardError.Kind.noData` when it ended with no data (switch over ``state`` or
    ///   ``result()`` to treat that as a state instead).
    public var response: APIResponse<Value> {
        get async throws(SwitchyardError) {
            switch await result() {
            case .succeeded(let response): return response
            case .noData(let info):
                var error = SwitchyardError(.noData, "The response carried no data (status \(info.head.status.code)).")
                error.request = info.request
                error.response = info.head
                throw error
            case .failed(let error): throw error
            case .cancelled, .notStarted, .running: throw .cancelled
            }
        }
    }

    /// The decoded value, starting the call if needed (see ``response`` for what it throws).
    public var value: Value {
        get async throws(SwitchyardError) { try await response.value }
    }

    private func finish(_ final: CallState<Value>) {
        let (waiters, observers): ([CheckedContinuation<CallState<Value>, Never>], [AsyncStream<CallState<Value>>.Continuation]) =
            store.withLock { store in
                guard !store.state.isFinal else { return ([], []) }
                store.state = final
                store.task = nil
                defer {
                    store.waiters = []
                    store.observers = [:]
                }
                return (store.waiters, Array(store.observers.values))
            }
        for observer in observers {
            observer.yield(final)
            observer.finish()
        }
        for waiter in waiters { waiter.resume(returning: final) }
    }
}
