/// The latest value of a state, handed to any number of subscribers until the state is final.
///
/// ```swift
/// let broadcast = StateBroadcast("not started")   // e.g. a download's or a call's state
/// let states = broadcast.subscribe()           // yields "not started", then every later state
/// broadcast.publish("running")
/// broadcast.finish(with: "cancelled")          // yields "cancelled", then ends every stream
/// let final = await broadcast.finalState()     // "cancelled"
/// ```
///
/// - **Subscribing.** Every ``subscribe()`` makes a stream of its own that starts with the current
///   value and receives every later one in publishing order. A stream whose consumer stops
///   iterating (or whose task is cancelled) is removed at once.
/// - **Finishing.** ``finish(with:)`` publishes a final value and ends every stream; later
///   subscribers get the final value and an ended stream, and later publishing does nothing.
///   Releasing the broadcast ends its streams too.
/// - **Costs.** Reading ``current`` takes the lock. Publishing takes it and yields to every
///   subscriber under it: linear in the number of subscribers. A subscriber is a stream and a
///   dictionary entry; a ``finalState()`` waiter, a continuation. Each stream buffers without bound,
///   so a subscriber that stops reading without ending its iteration keeps every later value
///   until the broadcast finishes.
/// - **Sources of a status.** A source of the network's status, say, keeps only the latest value per stream
///   (`keeping: .latest`), publishes with ``publishIfChanged(_:)`` and starts or stops its polling
///   with the subscriber count it is told of (`subscribersChanged`).
/// - **Owners with more state.** An owner that decides transitions under its own lock may publish
///   while holding it: the broadcast never calls back into its owner (streams are ended after its
///   own lock is released, as ending a stream runs the handler that removes it).
///
/// Safe from any thread.
public final class StateBroadcast<State: Sendable>: Sendable {
    /// What a subscriber's stream keeps while its consumer is busy.
    public enum Buffering: Sendable {
        /// Every value, in order (a state machine's transitions).
        case everyValue
        /// Only the latest value (a status, where only the current one matters).
        case latest
    }

    private struct Store {
        var current: State
        var isFinished = false
        var subscribers: [UInt64: AsyncStream<State>.Continuation] = [:]
        var nextID: UInt64 = 0
        var waiters: [CheckedContinuation<State, Never>] = []
    }

    private let store: Lock<Store>
    private let buffering: Buffering
    private let subscribersChanged: (@Sendable (Int) -> Void)?

    /// Creates a broadcast whose current value is `initial`.
    /// - Parameters:
    ///   - initial: The first value.
    ///   - keeping: What each subscriber's stream keeps while its consumer is busy.
    ///   - subscribersChanged: Told the number of subscribers after each subscribe and each
    ///     stream's end, under the broadcast's lock so that the counts arrive in order: it must not
    ///     call back into the broadcast.
    public init(
        _ initial: State, keeping: Buffering = .everyValue, subscribersChanged: (@Sendable (Int) -> Void)? = nil
    ) {
        store = Lock(Store(current: initial))
        buffering = keeping
        self.subscribersChanged = subscribersChanged
    }

    deinit {
        // No waiter is left: waiting holds the broadcast. Subscribers hold it weakly.
        for subscriber in store.withLock({ $0.subscribers.values }) { subscriber.finish() }
    }

    /// The latest value published.
    public var current: State { store.withLock { $0.current } }

    /// Whether ``finish(with:)`` has been called.
    public var isFinished: Bool { store.withLock { $0.isFinished } }

    /// How many streams are subscribed (for tests and diagnostics).
    var subscriberCount: Int { store.withLock { $0.subscribers.count } }

    /// A new stream of the current value and every later one; it ends when the broadcast finishes
    /// (at once, after the final value, if it already has).
    /// - Returns: The stream.
    public func subscribe() -> AsyncStream<State> {
        let policy: AsyncStream<State>.Continuation.BufferingPolicy = buffering == .latest ? .bufferingNewest(1) : .unbounded
        let (stream, continuation) = AsyncStream.makeStream(of: State.self, bufferingPolicy: policy)
        let subscribersChanged = subscribersChanged
        let id: UInt64? = store.withLock { store in
            continuation.yield(store.current)
            guard !store.isFinished else { return nil }
            defer { store.nextID += 1 }
            store.subscribers[store.nextID] = continuation
            subscribersChanged?(store.subscribers.count)
            return store.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.store.withLock { store in
                guard store.subscribers.removeValue(forKey: id) != nil else { return }
                subscribersChanged?(store.subscribers.count)
            }
        }
        return stream
    }

    /// Makes `value` the current value and hands it to every subscriber; does nothing once finished.
    /// - Parameter value: The new value.
    /// - Returns: Whether it was published.
    @discardableResult
    public func publish(_ value: State) -> Bool {
        store.withLock { store in
            guard !store.isFinished else { return false }
            store.current = value
            for subscriber in store.subscribers.values { subscriber.yield(value) }
            return true
        }
    }

    /// Publishes `value` only if it differs from the current value; does nothing once finished.
    /// - Parameter value: The new value.
    /// - Returns: Whether it was published.
    @discardableResult
    public func publishIfChanged(_ value: State) -> Bool where State: Equatable {
        store.withLock { store in
            guard !store.isFinished, store.current != value else { return false }
            store.current = value
            for subscriber in store.subscribers.values { subscriber.yield(value) }
            return true
        }
    }

    /// Publishes the final value, ends every stream and returns it to ``finalState()``'s waiters;
    /// does nothing once finished.
    /// - Parameter value: The final value.
    /// - Returns: Whether this call finished the broadcast.
    @discardableResult
    public func finish(with value: State) -> Bool {
        let ended: ([AsyncStream<State>.Continuation], [CheckedContinuation<State, Never>])? = store.withLock { store in
            guard !store.isFinished else { return nil }
            store.current = value
            store.isFinished = true
            defer {
                if !store.subscribers.isEmpty { subscribersChanged?(0) }
                store.subscribers.removeAll()
                store.waiters.removeAll()
            }
            return (Array(store.subscribers.values), store.waiters)
        }
        // Outside the lock: ending a stream runs its termination handler, which takes the lock.
        guard let (subscribers, waiters) = ended else { return false }
        for subscriber in subscribers {
            subscriber.yield(value)
            subscriber.finish()
        }
        for waiter in waiters { waiter.resume(returning: value) }
        return true
    }

    /// Waits for the final value (returns it at once if finished). Not cancellable: an owner that
    /// wants cancelling the wait to end its work wraps this in `withTaskCancellationHandler`.
    /// - Returns: The value ``finish(with:)`` published.
    public func finalState() async -> State {
        await withCheckedContinuation { (continuation: CheckedContinuation<State, Never>) in
            let final: State? = store.withLock { store in
                guard store.isFinished else {
                    store.waiters.append(continuation)
                    return nil
                }
                return store.current
            }
            if let final { continuation.resume(returning: final) }
        }
    }
}
