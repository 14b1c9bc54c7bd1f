import SwitchyardCore

/// Follows every exchange of a client while it runs: how many are in flight (and queued), by tag,
/// and cancels them as a group — everything a screen started, or everything.
///
/// ```swift
/// let tracker = ExchangeTracker()
/// var configuration = ClientConfiguration()
/// configuration.plugins.append(.tracking(tracker))
/// let client = try Client(transport: CurlTransport(), configuration: configuration)
///
/// let options = RequestOptions(tags: ["profile-screen"])
/// async let profile = client.send(try Request(url: "https://api.example.com/me", options: options))
///
/// tracker.cancel(tagged: "profile-screen")   // the screen went away
/// for await activity in tracker.activityUpdates() { spinner.isHidden = !activity.isActive }
/// ```
///
/// A cancelled exchange ends promptly with `SwitchyardError.Kind.cancelled` wherever it is: queued
/// for a slot, on the wire (the transport closes the connection), in a retry back-off, waiting for a
/// coalesced exchange, or while its streamed body is read. Only exchanges started through
/// `Client.send(_:)` and `Client.stream(_:)` of a client with this tracker are followed; an
/// exchange counts as in flight until its body has been read, failed or dropped.
///
/// Costs: a tracked exchange runs in a task of its own (started with `Task.immediate` where
/// available) and is registered under a lock (figures in `Benchmarks/results`); a client without a
/// tracker does none of this.
public final class ExchangeTracker: Sendable {
    private let state = Lock(State())

    private struct State {
        var exchanges: [UInt64: TrackedExchange] = [:]
        var queued: Set<UInt64> = []
        var subscribers: [Int: Subscriber] = [:]
        var nextSubscriber = 0
    }

    private struct Subscriber {
        let tag: String?
        let continuation: AsyncStream<TrafficActivity>.Continuation
    }

    /// Creates a tracker that follows nothing yet.
    public init() {}

    /// The activity now, of every exchange or of those carrying `tag`.
    /// - Parameter tag: A tag, or `nil` for every exchange.
    /// - Returns: The counts.
    public func activity(tagged tag: String? = nil) -> TrafficActivity {
        state.withLock { Self.activity(of: $0, tag: tag) }
    }

    /// The activity now, then every change, of every exchange or of those carrying `tag`. Only the
    /// newest value is kept for a slow reader.
    /// - Parameter tag: A tag, or `nil` for every exchange.
    /// - Returns: A stream that ends when the reader stops iterating.
    public func activityUpdates(tagged tag: String? = nil) -> AsyncStream<TrafficActivity> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let id = state.withLock { state in
                continuation.yield(Self.activity(of: state, tag: tag))
                state.nextSubscriber += 1
                state.subscribers[state.nextSubscriber] = Subscriber(tag: tag, continuation: continuation)
                return state.nextSubscriber
            }
            continuation.onTermination = { [weak self] _ in
                _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
            }
        }
    }

    /// Cancels every exchange in flight that carries `tag`.
    /// - Parameter tag: The tag (see `RequestOptions.tags`).
    /// - Returns: How many exchanges were cancelled.
    @discardableResult
    public func cancel(tagged tag: String) -> Int {
        cancel { $0.tags.contains(tag) }
    }

    /// Cancels every exchange in flight.
    /// - Returns: How many exchanges were cancelled.
    @discardableResult
    public func cancelAll() -> Int {
        cancel { _ in true }
    }

    private func cancel(where matches: (TrackedExchange) -> Bool) -> Int {
        let chosen = state.withLock { $0.exchanges.values.filter(matches) }
        for exchange in chosen { exchange.cancel() }
        return chosen.count
    }

    // MARK: - Registration

    /// Starts following an exchange.
    func register(id: UInt64, tags: Set<String>) -> TrackedExchange {
        let exchange = TrackedExchange(id: id, tags: tags)
        state.withLock { state in
            state.exchanges[id] = exchange
            publish(state)
        }
        return exchange
    }

    /// Stops following an exchange (it ended).
    func unregister(_ exchange: TrackedExchange) {
        exchange.end()
        state.withLock { state in
            guard state.exchanges.removeValue(forKey: exchange.id) != nil else { return }
            state.queued.remove(exchange.id)
            publish(state)
        }
    }

    /// Marks an exchange as queued for a slot, or no longer queued.
    func exchange(_ exchange: TrackedExchange, isQueued: Bool) {
        state.withLock { state in
            guard state.exchanges[exchange.id] != nil else { return }
            let changed = isQueued ? state.queued.insert(exchange.id).inserted : state.queued.remove(exchange.id) != nil
            if changed { publish(state) }
        }
    }

    private func publish(_ state: State) {
        for subscriber in state.subscribers.values {
            subscriber.continuation.yield(Self.activity(of: state, tag: subscriber.tag))
        }
    }

    private static func activity(of state: State, tag: String?) -> TrafficActivity {
        guard let tag else { return TrafficActivity(inFlight: state.exchanges.count, queued: state.queued.count) }
        var activity = TrafficActivity(inFlight: 0, queued: 0)
        for exchange in state.exchanges.values where exchange.tags.contains(tag) {
            activity.inFlight += 1
            if state.queued.contains(exchange.id) { activity.queued += 1 }
        }
        return activity
    }
}
