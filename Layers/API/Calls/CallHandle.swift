import HTTPTypes
import SwitchyardActivity
import SwitchyardCore

/// One call of an endpoint: start it, cancel it from anywhere, await its value, or follow its
/// ``CallState`` (queued behind a limit, running, waiting to retry, and how it ended).
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
    /// The running call's task; every state change is decided under this lock, then published
    /// (the broadcast's lock is taken inside it, never the other way round).
    private let task = Lock<Task<Void, Never>?>(nil)
    private let broadcast = StateBroadcast(CallState<Value>.notStarted)
    private let operation: @Sendable () async -> CallState<Value>

    /// Creates a handle that runs `operation` when started.
    /// - Parameter operation: Performs the call and returns its final state.
    public init(_ operation: @escaping @Sendable () async -> CallState<Value>) {
        self.operation = operation
    }

    deinit {
        task.withLock { $0?.cancel() }
    }

    /// The current state.
    public var state: CallState<Value> { broadcast.current }

    /// The current state, then every change until the final one; each access makes a new stream.
    public var states: AsyncStream<CallState<Value>> { broadcast.subscribe() }

    /// Starts the call; does nothing if it has started or ended.
    public func start() {
        task.withLock { task in
            guard case .notStarted = broadcast.current else { return }
            broadcast.publish(.running)
            // The chain reports queueing and retry waits of this call's exchanges to the observer.
            let observer = ActivityObserver { [weak self] phase in self?.report(phase) }
            task = Task { [operation] in
                let final = await ActivityReporting.$observer.withValue(observer) { await operation() }
                self.finish(final)
            }
        }
    }

    /// Cancels the call: before it starts (it then never runs) or while it runs. Does nothing
    /// once it has ended. Safe from any thread, any number of times.
    public func cancel() {
        let running: Task<Void, Never>? = task.withLock { task in
            switch broadcast.current {
            case .notStarted:
                broadcast.finish(with: .cancelled)
                return nil
            case .queued, .running, .waitingToRetry:
                return task
            default:
                return nil
            }
        }
        running?.cancel()
    }

    /// Waits for the final state, starting the call if needed.
    /// - Returns: The final state.
    public func result() async -> CallState<Value> {
        start()
        return await withTaskCancellationHandler {
            await broadcast.finalState()
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
            case .cancelled, .notStarted, .queued, .running, .waitingToRetry: throw .cancelled
            }
        }
    }

    /// The decoded value, starting the call if needed (see ``response`` for what it throws).
    public var value: Value {
        get async throws(SwitchyardError) { try await response.value }
    }

    /// Publishes a phase the chain reported, while the call runs.
    private func report(_ phase: ExchangeActivity) {
        let state: CallState<Value>
        switch phase {
        case .queued: state = .queued
        case .running: state = .running
        case .waitingForAttempt(let attempt, let delay): state = .waitingToRetry(attempt: attempt, delay: delay)
        }
        task.withLock { _ in
            guard broadcast.current.phase.isActive else { return }
            broadcast.publish(state)
        }
    }

    private func finish(_ final: CallState<Value>) {
        task.withLock { task in
            guard broadcast.finish(with: final) else { return }
            task = nil
        }
    }
}
