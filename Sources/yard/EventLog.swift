import Switchyard

/// Collects every event a client publishes, synchronously, for `yard request`'s JSON and waterfall.
final class EventLog: Sendable {
    private let events = Lock<[ExchangeEvent]>([])

    /// Starts collecting the events of `bus`.
    init(observing bus: EventBus) {
        bus.addObserver { event in self.events.withLock { $0.append(event) } }
    }

    /// The events so far, in publishing order.
    var all: [ExchangeEvent] { events.withLock { $0 } }
}

extension ExchangeEvent.Kind {
    /// A short human-readable detail for the JSON `detail` field and the waterfall.
    var detail: String {
        switch self {
        case .started, .cancelled: ""
        case .succeeded(let status): "status \(status)"
        case .failed(let error): "\(error.kind.rawValue): \(error.message)"
        case .plugin(let event): event.detail
        }
    }
}
