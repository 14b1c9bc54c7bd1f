import Synchronization

/// Delivers ``ExchangeEvent``s to any number of subscribers, each as an `AsyncStream`.
///
/// Publishing never waits: each subscriber has a bounded buffer, and when a slow subscriber's
/// buffer is full its oldest undelivered events are dropped (and counted), so no subscriber can
/// block the network layer or grow memory without bound.
///
/// ```swift
/// let bus = EventBus()
/// Task {
///     for await event in bus.subscribe() {
///         if case .failed(let error) = event.kind { print(event, error) }
///     }
/// }
/// ```
public final class EventBus: Sendable {
    /// Events buffered per subscriber before the oldest are dropped.
    public static let defaultBufferSize = 256

    private struct Subscriber {
        let id: UInt64
        let continuation: AsyncStream<ExchangeEvent>.Continuation
    }

    private struct State {
        /// An array rather than a dictionary: publishing copies it, which is a retain, not an allocation.
        var subscribers: [Subscriber] = []
        var observers: [@Sendable (ExchangeEvent) -> Void] = []
        var nextID: UInt64 = 0
        var dropped = 0

        var hasListeners: Bool { !subscribers.isEmpty || !observers.isEmpty }
    }

    private let state = Lock(State())
    /// Whether anyone listens: read without the lock, so that an exchange publishing to nobody
    /// builds no event at all.
    private let listening = Atomic<Bool>(false)

    /// Whether the bus has a subscriber or an observer; publishing to a bus without either does nothing.
    public var hasListeners: Bool { listening.load(ordering: .relaxed) }

    /// Creates a bus with no subscribers.
    public init() {}

    /// A stream of every event published from now on, until the stream is dropped or the task
    /// iterating it is cancelled.
    /// - Parameter bufferSize: Events kept for this subscriber while it is busy; beyond that the
    ///   oldest are dropped.
    /// - Returns: The stream.
    public func subscribe(bufferSize: Int = EventBus.defaultBufferSize) -> AsyncStream<ExchangeEvent> {
        let (stream, continuation) = AsyncStream<ExchangeEvent>.makeStream(bufferingPolicy: .bufferingNewest(max(1, bufferSize)))
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.subscribers.append(Subscriber(id: state.nextID, continuation: continuation))
            listening.store(true, ordering: .relaxed)
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            state.withLock { state in
                state.subscribers.removeAll { $0.id == id }
                listening.store(state.hasListeners, ordering: .relaxed)
            }
        }
        return stream
    }

    /// Adds an observer that is called synchronously, on the publishing task, with every event
    /// published from now on. Keep it short: it runs inside the exchange (plugins use this to
    /// watch their own requests).
    /// - Parameter observer: The observer.
    public func addObserver(_ observer: @escaping @Sendable (ExchangeEvent) -> Void) {
        state.withLock { state in
            state.observers.append(observer)
            listening.store(true, ordering: .relaxed)
        }
    }

    /// Hands `event` to every observer and subscriber without waiting.
    /// - Parameter event: The event.
    public func publish(_ event: ExchangeEvent) {
        let (subscribers, observers) = state.withLock { ($0.subscribers, $0.observers) }
        for observer in observers { observer(event) }
        var dropped = 0
        for subscriber in subscribers {
            if case .dropped = subscriber.continuation.yield(event) { dropped += 1 }
        }
        if dropped > 0 { state.withLock { $0.dropped += dropped } }
    }

    /// The number of current subscribers.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Events dropped so far because a subscriber's buffer was full.
    public var droppedEventCount: Int { state.withLock { $0.dropped } }
}

extension ExchangeContext {
    /// Publishes an event of this kind about this exchange (its id, attempt and the given request)
    /// to the chain's plugin observers and the client's ``eventBus``. Costs nothing (no event is
    /// built) when nobody listens. Every event carries the context (``ExchangeEvent/context``), where observers read plugins' values.
    /// - Parameters:
    ///   - kind: What happened.
    ///   - request: The request the event is about.
    public func publish(_ kind: @autoclosure () -> ExchangeEvent.Kind, request: Request) {
        let bus = eventBus.flatMap { $0.hasListeners ? $0 : nil }
        guard bus != nil || !observers.isEmpty else { return }
        var event = ExchangeEvent(
            kind: kind(), exchangeID: id, request: request.head, tags: request.options.tags,
            attempt: attempt)
        event.userInfo = request.options.userInfo
        event.context = self
        for observer in observers { observer(event) }
        bus?.publish(event)
    }
}
