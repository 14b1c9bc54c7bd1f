public import SwitchyardCore

extension Plugin {
    /// The layer of ``circuitBreaker(_:)``: the first attempt link, outside every attempt plugin, so
    /// every attempt (each retry, each redirect hop) is counted and an attempt it fails fast reaches
    /// no plugin and no transport.
    public static let circuitBreakerLayer: Layer = .admission

    /// A plugin that runs `breaker`: requests to a failing host fail fast with
    /// ``SwitchyardError/Kind/circuitOpen``, and ``CircuitOpened`` / ``CircuitClosed`` events tell
    /// when a host's breaker opens and closes.
    ///
    /// ```swift
    /// let breaker = CircuitBreaker(policy: CircuitBreakerPolicy())
    /// configuration.plugins.append(.circuitBreaker(breaker))
    /// breaker.state(forHost: "api.example.com:443")  // the app can read it
    /// ```
    ///
    /// Named `circuitBreaker`, in the attempt position at ``circuitBreakerLayer``. The breaker is a
    /// reference: its state survives plugin changes. Costs nothing when absent; when present, one
    /// lock per attempt.
    /// - Parameter breaker: The breaker; share one instance between clients to share its state.
    /// - Returns: The plugin.
    public static func circuitBreaker(_ breaker: CircuitBreaker) -> Plugin {
        Plugin(
            name: "circuitBreaker", position: .attempt, layer: circuitBreakerLayer,
            interceptors: [CircuitBreakerInterceptor(breaker: breaker)])
    }
}

extension CircuitBreaker {
    /// A pop-up text for ``SwitchyardCore/SwitchyardError/Kind/circuitOpen``, for the app's pop-up
    /// policy (`configuration.popUps?.defaults.kinds[.circuitOpen] = CircuitBreaker.popUpText`).
    public static let popUpText = "The service is temporarily unavailable. Please try again later."
}
