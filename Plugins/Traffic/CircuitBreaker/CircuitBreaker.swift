public import HTTPTypes
import SwitchyardCore

/// Stops sending requests to a host that keeps failing, and lets a few probes through after a
/// cool-down to find out whether it recovered.
///
/// Each host (by default; see ``CircuitBreakerPolicy/Keying``) has its own breaker:
///
/// ```
///  closed ──(failure rate ≥ threshold over the window, or N failures in a row)──▶ open
///    ▲                                                                            │
///    │                                                              (openDuration passed)
///    │                                                                            ▼
///    └────────────────(every probe succeeded)──────────────────────────────── half-open
///                      (a probe failed: open again) ─────────────────────────────▶ open
/// ```
///
/// While a breaker is open, requests to its host fail at once with
/// ``SwitchyardCore/SwitchyardError/Kind/circuitOpen`` (the message names the host and when it lets a probe
/// through), without reaching the server; `RetryInterceptor` never retries them. The exchange
/// whose outcome opens or closes a breaker publishes ``CircuitOpened``
/// or ``CircuitClosed`` on its bus, once per transition.
///
/// ```swift
/// let breaker = CircuitBreaker(policy: CircuitBreakerPolicy(openDuration: .seconds(30)))
/// var configuration = ClientConfiguration()
/// configuration.plugins.append(.circuitBreaker(breaker))
/// let client = try Client(transport: CurlTransport(), configuration: configuration)
/// // …
/// if breaker.state(forHost: "api.example.com") == .open { showServiceDownBanner() }
/// ```
///
/// The breaker is a reference: its state is shared by every chain that holds it (a client keeps it
/// when plugins are registered later) and can be read by the app. It runs as the first attempt
/// link (``CircuitBreakerInterceptor``), so every attempt (each retry, each redirect hop) is
/// counted, and a request that fails fast skips the attempt plugins and the transport.
///
/// With ``CircuitSharing`` the breakers are a fleet's: see there what each request then adds.
///
/// Cost: a request outside the policy's scope pays a scope check (nothing at all with
/// `RequestScope.all`); one inside takes a lock twice (admit, record) and looks its host up by the
/// authority string the request already holds (a new string only when the authority has
/// upper-case letters or user information). Memory: one small record per host seen; past 1,000
/// hosts, closed breakers without recent failures are forgotten.
public final class CircuitBreaker: Sendable {
    /// Hosts kept before closed breakers without recent failures are forgotten.
    static let maxTrackedHosts = 1000

    /// When breakers open and what counts as a failure.
    public let policy: CircuitBreakerPolicy
    private let circuits = Lock<[String: HostCircuit]>([:])
    private let now: @Sendable () -> ContinuousClock.Instant
    private let origin: ContinuousClock.Instant
    /// Whether the policy's scope is `.all`, so that no request needs a scope check.
    let watchesEveryRequest: Bool
    /// The policy's numbers, as a plain value for the state machine.
    private let rules: CircuitRules
    /// Whether each status 0…999 is in the policy's failure statuses: an index, not a hash.
    private let failingStatuses: [Bool]

    /// The link to the fleet's store, when shared.
    let fleet: FleetCircuits?

    /// Creates a breaker with every host closed.
    /// - Parameters:
    ///   - policy: When breakers open and what counts as a failure.
    ///   - sharing: Shares the breakers with every process of a fleet through a
    ///     ``CircuitStateStore``; `nil` (the default) keeps them in this process.
    ///   - now: The clock; inject one in tests to move time by hand.
    public init(
        policy: CircuitBreakerPolicy = CircuitBreakerPolicy(), sharing: CircuitSharing? = nil,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.policy = policy
        self.now = now
        self.origin = now()
        self.watchesEveryRequest = policy.scope == .all
        self.rules = CircuitRules(policy)
        self.failingStatuses = (0..<1000).map { policy.failureStatuses.contains($0) }
        self.fleet = sharing.map { FleetCircuits(sharing: $0, rules: CircuitRules(policy)) }
    }

    /// How the breakers are shared with a fleet, if they are.
    public var sharing: CircuitSharing? { fleet?.sharing }

    /// The state of the breaker for `host`.
    /// - Parameter host: The host as requests name it: the URL's authority without user
    ///   information, e.g. `api.example.com` or `127.0.0.1:8080` (case does not matter); the name of
    ///   a ``CircuitBreakerPolicy/Keying/shared(name:)`` breaker.
    /// - Returns: `closed` for a host never seen.
    public func state(forHost host: String) -> CircuitState {
        let key = if case .shared(let name) = policy.keying, name == host { name } else { host.lowercased() }
        let now = now()
        return circuits.withLock { $0[key]?.state(at: now) ?? .closed }
    }

    /// The state of the breaker a request with this head would go through.
    /// - Parameter request: The request head.
    /// - Returns: `closed` for a host never seen.
    public func state(for request: HTTPRequest) -> CircuitState {
        let key = key(for: request)
        let now = now()
        return circuits.withLock { $0[key]?.state(at: now) ?? .closed }
    }

    /// Closes every breaker and forgets every host's history.
    public func reset() {
        circuits.withLock { $0.removeAll() }
    }

    // MARK: - Used by the interceptor

    /// The breaker's key for a request: the shared name, or the authority without user information,
    /// lower-cased (the request's own string when it is already in that form).
    func key(for request: HTTPRequest) -> String {
        if case .shared(let name) = policy.keying { return name }
        return HostKey.of(request)
    }

    /// How an attempt that got a response with this status counts.
    func classify(status: Int) -> CircuitOutcome {
        let failed = failingStatuses.indices.contains(status) ? failingStatuses[status] : policy.failureStatuses.contains(status)
        return failed ? .failure : .success
    }

    /// Lets a call to `key` through, or refuses it with the time until a probe may go.
    func admit(_ key: String) -> Result<CircuitTicket, RejectedCall> {
        let now = now()
        return circuits.withLock { circuits in
            if circuits.count >= Self.maxTrackedHosts, circuits[key] == nil {
                circuits = circuits.filter { !$0.value.isIdle }
            }
            return circuits[key, default: HostCircuit(window: policy.window)].admit(at: now, rules: rules)
        }
    }

    /// Counts an admitted call's outcome; returns the transition it caused, if any.
    func record(_ outcome: CircuitOutcome, key: String, ticket: CircuitTicket) -> HostCircuit.Transition? {
        if outcome == .neutral, !ticket.isProbe { return nil }
        let now = now()
        let elapsed = origin.duration(to: now)
        return circuits.withLock { circuits in
            // Through `values[index]`: an in-place change of the stored record (no copy of its window).
            guard let index = circuits.index(forKey: key) else { return nil }
            return circuits.values[index].record(outcome, ticket: ticket, at: now, elapsed: elapsed, rules: rules)
        }
    }

    /// Opens the breaker of `key` for `duration` because the fleet's view says so.
    /// - Returns: Whether it was not open here already (the caller publishes ``CircuitOpened``).
    func adoptOpen(_ key: String, for duration: Duration) -> Bool {
        let until = now().advanced(by: duration)
        return circuits.withLock { $0[key, default: HostCircuit(window: policy.window)].adoptOpen(until: until) }
    }

    /// Closes the breaker of `key` because the fleet's probe succeeded.
    /// - Returns: Whether it was not closed here (the caller publishes ``CircuitClosed``).
    func adoptClosed(_ key: String) -> Bool {
        circuits.withLock { circuits in
            guard let index = circuits.index(forKey: key) else { return false }
            return circuits.values[index].adoptClosed()
        }
    }

    /// The breaker's clock.
    func clockNow() -> ContinuousClock.Instant { now() }

    /// A duration for messages: `250 ms`, `4.2 s`, `90 s`.
    static func describe(_ duration: Duration) -> String {
        let milliseconds = Int((duration.milliseconds).rounded(.up))
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        if milliseconds < 10_000 { return "\(milliseconds / 1000).\(milliseconds % 1000 / 100) s" }
        return "\(milliseconds / 1000) s"
    }
}
