public import SwitchyardCore

/// Published (`ExchangeEvent.Kind.plugin(_:)`) by the exchange whose outcome opened the circuit
/// breaker of ``host``: requests to it fail fast with ``SwitchyardCore/SwitchyardError/Kind/circuitOpen`` for
/// ``retryAfter``, then probes are let through. Once per opening.
public struct CircuitOpened: PluginEvent, Hashable {
    /// `circuitOpened`.
    public var name: String { "circuitOpened" }
    /// The host and port whose breaker opened.
    public let host: String
    /// How long until the breaker lets a probe through.
    public let retryAfter: Duration
    /// `HOST for N ms`.
    public var detail: String {
        let (seconds, attoseconds) = retryAfter.components
        return "\(host) for \(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
    }

    /// Creates the event.
    /// - Parameters:
    ///   - host: The host and port.
    ///   - retryAfter: How long until a probe is let through.
    public init(host: String, retryAfter: Duration) {
        self.host = host
        self.retryAfter = retryAfter
    }
}

/// Published (`ExchangeEvent.Kind.plugin(_:)`) by the exchange whose outcome (a successful probe)
/// closed the circuit breaker of ``host``. Once per closing.
public struct CircuitClosed: PluginEvent, Hashable {
    /// `circuitClosed`.
    public var name: String { "circuitClosed" }
    /// The host and port whose breaker closed.
    public let host: String
    /// The host.
    public var detail: String { host }

    /// Creates the event.
    /// - Parameter host: The host and port.
    public init(host: String) {
        self.host = host
    }
}
