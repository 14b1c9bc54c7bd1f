public import SwitchyardCore

/// When a ``CircuitBreaker`` opens, how long it stays open, and what counts as a failure.
///
/// The defaults open a host's breaker when at least half of the calls of the last 30 seconds
/// failed (counted once 10 calls have been seen), keep it open for 10 seconds, then let one probe
/// request through: the breaker closes when the probe succeeds and opens again when it fails.
///
/// ```swift
/// var policy = CircuitBreakerPolicy()
/// policy.failureRateThreshold = 0.5
/// policy.window = .calls(20)                 // the last 20 calls, however old
/// policy.minimumCalls = 10
/// policy.openDuration = .seconds(30)
/// policy.halfOpenProbes = 2
/// policy.consecutiveFailures = 5             // also open after 5 failures in a row
/// var configuration = ClientConfiguration()
/// configuration.plugins.append(.circuitBreaker(CircuitBreaker(policy: policy)))
/// ```
///
/// ### What counts as a failure
///
/// An attempt that ends with an error of a kind in ``failureKinds`` (by default
/// `SwitchyardError.Kind.connectionFailed` and `SwitchyardError.Kind.timeout`) or with a
/// response whose status is in ``failureStatuses`` (by default every 5xx). Any other response
/// (2xx, 3xx, 4xx) is a success: a 4xx is the client's mistake, not a sign the host is down.
/// Cancellations and other errors (TLS, protocol violations, invalid requests, oversized bodies)
/// count neither way.
public struct CircuitBreakerPolicy: Sendable, Hashable {
    /// The calls a failure rate is computed over.
    public enum Window: Sendable, Hashable {
        /// The calls that ended during the last `duration` (kept as 10 buckets, so calls leave
        /// the window a tenth of `duration` at a time).
        case duration(Duration)
        /// The last `count` calls, however long ago they ended.
        case calls(Int)
    }

    /// Which requests share one breaker.
    public enum Keying: Sendable, Hashable {
        /// One breaker per host: the request's authority as written in its URL, lower-cased and
        /// without user information (`api.example.com`, `127.0.0.1:8080`).
        case host
        /// One breaker for every request in the policy's ``CircuitBreakerPolicy/scope``; `name`
        /// stands for the host in events and errors (e.g. `payments`).
        case shared(name: String)
    }

    /// The default failure rate that opens a breaker: 0.5 (half of the calls in the window).
    public static let defaultFailureRateThreshold = 0.5
    /// The default window: the last 30 seconds.
    public static let defaultWindow = Window.duration(.seconds(30))
    /// The default number of calls in the window before the failure rate is looked at: 10.
    public static let defaultMinimumCalls = 10
    /// The default time a breaker stays open before it lets probes through: 10 seconds.
    public static let defaultOpenDuration: Duration = .seconds(10)
    /// The default number of probe requests let through when half-open: 1.
    public static let defaultHalfOpenProbes = 1
    /// The statuses that count as failures by default: 500–599.
    public static let defaultFailureStatuses = Set(500...599)
    /// The error kinds that count as failures by default: `connectionFailed` and `timeout`.
    public static let defaultFailureKinds: Set<SwitchyardError.Kind> = [.connectionFailed, .timeout]

    /// The failure rate (0…1) in the window that opens the breaker, once the window holds
    /// ``minimumCalls`` calls; `nil` turns the rate rule off (only ``consecutiveFailures`` opens it).
    public var failureRateThreshold: Double?
    /// The calls the failure rate is computed over.
    public var window: Window
    /// Calls the window must hold before the failure rate can open the breaker.
    public var minimumCalls: Int
    /// Also open after this many failures in a row, whatever the window says; `nil` (the
    /// default) for no such rule. `yard burst --breaker-failures F` uses this rule alone.
    public var consecutiveFailures: Int?
    /// How long an open breaker fails requests fast before it lets probes through (half-open).
    public var openDuration: Duration
    /// Probe requests let through when half-open; the breaker closes when all of them succeed and
    /// opens again at the first that fails. Other requests fail fast meanwhile.
    public var halfOpenProbes: Int
    /// Response statuses that count as failures (every other status is a success).
    public var failureStatuses: Set<Int>
    /// Error kinds that count as failures (other errors, and cancellations, count neither way).
    public var failureKinds: Set<SwitchyardError.Kind>
    /// The requests the breaker watches; others pass through untouched (and uncounted).
    public var scope: RequestScope
    /// Whether each host has its own breaker (the default) or the whole scope shares one.
    public var keying: Keying

    /// Creates a policy; every parameter has a documented default.
    /// - Parameters:
    ///   - failureRateThreshold: The failure rate that opens the breaker, or `nil` for none.
    ///   - window: The calls the rate is computed over.
    ///   - minimumCalls: Calls needed before the rate counts.
    ///   - consecutiveFailures: Failures in a row that open the breaker, or `nil` for none.
    ///   - openDuration: The cool-down before probes.
    ///   - halfOpenProbes: Probes let through when half-open.
    ///   - failureStatuses: Statuses that count as failures.
    ///   - failureKinds: Error kinds that count as failures.
    ///   - scope: The requests watched.
    ///   - keying: One breaker per host, or one for the scope.
    public init(
        failureRateThreshold: Double? = CircuitBreakerPolicy.defaultFailureRateThreshold,
        window: Window = CircuitBreakerPolicy.defaultWindow,
        minimumCalls: Int = CircuitBreakerPolicy.defaultMinimumCalls,
        consecutiveFailures: Int? = nil,
        openDuration: Duration = CircuitBreakerPolicy.defaultOpenDuration,
        halfOpenProbes: Int = CircuitBreakerPolicy.defaultHalfOpenProbes,
        failureStatuses: Set<Int> = CircuitBreakerPolicy.defaultFailureStatuses,
        failureKinds: Set<SwitchyardError.Kind> = CircuitBreakerPolicy.defaultFailureKinds,
        scope: RequestScope = .all,
        keying: Keying = .host
    ) {
        self.failureRateThreshold = failureRateThreshold
        self.window = window
        self.minimumCalls = minimumCalls
        self.consecutiveFailures = consecutiveFailures
        self.openDuration = openDuration
        self.halfOpenProbes = halfOpenProbes
        self.failureStatuses = failureStatuses
        self.failureKinds = failureKinds
        self.scope = scope
        self.keying = keying
    }

    /// A policy that opens only after `count` failures in a row (no rate rule): what
    /// `yard burst --breaker-failures F` uses.
    /// - Parameters:
    ///   - count: Failures in a row that open the breaker.
    ///   - openDuration: The cool-down before a probe.
    /// - Returns: The policy.
    public static func consecutiveFailures(
        _ count: Int, openDuration: Duration = CircuitBreakerPolicy.defaultOpenDuration
    ) -> CircuitBreakerPolicy {
        CircuitBreakerPolicy(failureRateThreshold: nil, consecutiveFailures: count, openDuration: openDuration)
    }

    /// How an attempt that failed with an error of this kind counts (a cancellation never counts).
    func classify(error kind: SwitchyardError.Kind) -> CircuitOutcome {
        kind != .cancelled && failureKinds.contains(kind) ? .failure : .neutral
    }
}

/// How one attempt counts towards a breaker.
enum CircuitOutcome {
    /// A response with a status that is not a failure.
    case success
    /// A failure status or a failure error kind.
    case failure
    /// Counts neither way (cancelled, or an error kind the policy does not count).
    case neutral
}
