public import Switchyard

/// Every event an ``EventBus`` publishes, collected synchronously by an observer (no subscriber
/// buffer, nothing dropped), for assertions on whole event sequences.
public final class CollectedEvents: Sendable {
    private let events = Lock<[ExchangeEvent]>([])

    /// Starts collecting what `bus` publishes from now on.
    /// - Parameter bus: The bus to observe.
    public init(_ bus: EventBus) {
        bus.addObserver { event in self.events.withLock { $0.append(event) } }
    }

    /// The events so far, in publishing order.
    public var all: [ExchangeEvent] { events.withLock { $0 } }

    /// The names of the events' kinds, e.g. `["started", "succeeded"]`.
    public var names: [String] { all.map(\.kind.name) }

    /// How many events of kind `name` were published.
    public func count(_ name: String) -> Int { all.lazy.filter { $0.kind.name == name }.count }

    /// The pop-ups worth showing, in order.
    public var worthyPopUps: [PopUp] { all.compactMap(\.popUp).filter(\.isWorthShowing) }
}
