import SwitchyardCore

/// The state of one host's circuit breaker (see ``CircuitBreaker``).
public enum CircuitState: String, Sendable, Hashable, CustomStringConvertible {
    /// Requests go through and their outcomes are counted.
    case closed
    /// Requests fail fast with ``SwitchyardCore/SwitchyardError/Kind/circuitOpen`` until the cool-down ends.
    case open
    /// The cool-down is over: the next requests (up to ``CircuitBreakerPolicy/halfOpenProbes``) go
    /// through as probes; the others fail fast until the probes decide.
    case halfOpen

    /// `closed`, `open` or `halfOpen`.
    public var description: String { rawValue }
}
