public import SwitchyardCore

extension SwitchyardError.Kind {
    /// The host's circuit breaker is open after repeated failures: the request was not sent
    /// (see ``CircuitBreaker``). Not retried; try again after the breaker's cool-down.
    public static let circuitOpen = Self(rawValue: "circuitOpen")
}

extension SwitchyardError {
    /// The circuit breaker for `host` is open: the request was not sent.
    /// - Parameters:
    ///   - host: The host (and port) whose breaker is open, e.g. `api.example.com:443`.
    ///   - retryAfter: How long until the breaker lets a probe request through; zero when it is
    ///     half-open and its probes are already in flight.
    /// - Returns: A ``SwitchyardError/Kind/circuitOpen`` error.
    public static func circuitOpen(host: String, retryAfter: Duration) -> Self {
        let when =
            retryAfter <= .zero
            ? "It is testing the host with probe requests now; try again shortly."
            : "It lets a probe request through in \(CircuitBreaker.describe(retryAfter))."
        return Self(
            .circuitOpen,
            "The circuit breaker for \(host) is open after repeated failures;"
                + " the request was not sent. \(when)")
    }
}
