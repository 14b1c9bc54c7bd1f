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
///     for await event in bus.subscribe() where event.popUp?.isWorthShowing == true {
///         await showBanner(event.popUp!.message)
///     }
/// }
/// ```
public final class EventBus: Sendable {
    /// Events buffered per subscriber before the oldest are dropped.
    public static let defaultBufferSize = 256

    private struct Subscriber {
        let continuation: AsyncStream<ExchangeEvent>.Continuation
    }

    private struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var observers: [@Sendable (ExchangeEvent) -> Void] = []
        var nextID: UInt64 = 0
        var dropped = 0
    }

    private let state = Mutex(State())

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
            state.subscribers[state.nextID] = Subscriber(continuation: continuation)
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Adds an observer that is called synchronously, on the publishing task, with every event
    /// published from now on. Keep it short: it runs inside the exchange (plugins use this to
    /// watch their own requests).
    /// - Parameter observer: The observer.
    public func addObserver(_ observer: @escaping @Sendable (ExchangeEvent) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Hands `event` to every observer and subscriber without waiting.
    /// - Parameter event: The event.
    public func publish(_ event: ExchangeEvent) {
        let (subscribers, observers) = state.withLock { (Array($0.subscribers.values), $0.observers) }
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
    private enum EventBusKey: ExchangeContextKey {
        typealias Value = EventBus
    }

    /// The bus this exchange publishes its events on, if the client has one.
    public var eventBus: EventBus? {
        get { self[EventBusKey.self] }
        set { self[EventBusKey.self] = newValue }
    }

    /// Publishes an event of this kind about this exchange (its id, attempt and the given request),
    /// if the exchange has an ``eventBus``; does nothing otherwise.
    /// - Parameters:
    ///   - kind: What happened.
    ///   - request: The request the event is about.
    ///   - popUp: A user-presentable message, for failures worth telling the user about.
    public func publish(_ kind: ExchangeEvent.Kind, request: Request, popUp: PopUp? = nil) {
        guard let bus = eventBus else { return }
        bus.publish(ExchangeEvent(kind: kind, exchangeID: id, request: request.head, tags: request.options.tags,
                                  attempt: attempt, popUp: popUp))
    }
}
