public import SwitchyardCore

/// Published (`ExchangeEvent.Kind.plugin(_:)`) by a request that found the fleet's
/// ``CircuitStateStore`` unable to answer: the breaker goes by this process's own counts for
/// ``CircuitSharing/retryInterval``, without publishing it again.
public struct CircuitStoreFailed: PluginEvent, Hashable {
    /// `circuitStoreFailed`.
    public var name: String { "circuitStoreFailed" }
    /// The breaker: a host or a shared breaker's name.
    public let host: String
    /// What the store's failure said (never a password).
    public let message: String
    /// `HOST: MESSAGE`.
    public var detail: String { "\(host): \(message)" }

    /// Creates the event.
    /// - Parameters:
    ///   - host: The breaker.
    ///   - message: What the store's failure said.
    public init(host: String, message: String) {
        self.host = host
        self.message = message
    }
}
