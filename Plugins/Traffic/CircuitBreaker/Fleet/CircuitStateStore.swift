/// Circuit-breaker state kept outside the process, so that every process of a fleet sees a host
/// open once enough of their calls failed: a ``CircuitBreaker`` made with ``CircuitSharing``
/// reports failures (and the successes that end a run of them) to it, and reads it.
///
/// `SwitchyardPostgres` has one on PostgreSQL (`PostgresCircuitStateStore`). Another engine fits
/// behind the same four methods: each must update a breaker's record atomically and measure the
/// cool-down by its own clock.
public protocol CircuitStateStore: Sendable {
    /// The fleet's view of breaker `key` (closed with no failures for a key never seen).
    /// - Parameter key: The breaker's key: a host, or the name of a shared breaker.
    /// - Returns: The view.
    /// - Throws: When the store cannot answer.
    func state(of key: String) async throws -> SharedCircuit

    /// Counts a failed call: a run of `threshold` failures in a row (or `opens`) opens the breaker
    /// for `openDuration`. A failure while the breaker is open counts for nothing.
    /// - Parameters:
    ///   - key: The breaker's key.
    ///   - opens: Open the breaker whatever the count (a failed probe; a breaker this process
    ///     opened by its own failure rate).
    ///   - threshold: Failures in a row that open it.
    ///   - openDuration: The cool-down.
    /// - Returns: The view after the failure.
    /// - Throws: When the store cannot answer.
    func recordFailure(of key: String, opens: Bool, threshold: Int, openDuration: Duration) async throws -> SharedCircuit

    /// Counts a successful call: it ends the run of failures; a probe's success closes a breaker
    /// whose cool-down is over.
    /// - Parameters:
    ///   - key: The breaker's key.
    ///   - isProbe: Whether the call was a probe.
    /// - Throws: When the store cannot answer.
    func recordSuccess(of key: String, isProbe: Bool) async throws

    /// Claims the fleet's probe of a breaker whose cool-down is over, for `duration` (another
    /// process may claim it after that).
    /// - Parameters:
    ///   - key: The breaker's key.
    ///   - duration: How long the claim holds.
    /// - Returns: `nil` when this process got the probe; otherwise the view (open for a while yet,
    ///   its probe claimed by another process, or closed).
    /// - Throws: When the store cannot answer.
    func claimProbe(of key: String, for duration: Duration) async throws -> SharedCircuit?
}

/// The fleet's view of one breaker.
public struct SharedCircuit: Sendable, Hashable {
    /// Failed calls in a row, counted over the fleet.
    public var failures: Int
    /// How long the breaker refuses calls from now (its cool-down, or another process's probe
    /// claim); zero once its probe may go; `nil` when it is closed.
    public var openFor: Duration?

    /// Creates a view.
    /// - Parameters:
    ///   - failures: Failed calls in a row.
    ///   - openFor: How long it stays open.
    public init(failures: Int, openFor: Duration?) {
        self.failures = failures
        self.openFor = openFor
    }
}

/// How a ``CircuitBreaker`` shares its breakers with a fleet through a ``CircuitStateStore``.
///
/// ```swift
/// let breaker = CircuitBreaker(
///     policy: .consecutiveFailures(3), sharing: CircuitSharing(store: PostgresCircuitStateStore(shared: shared)))
/// ```
///
/// - Every failure is counted by the store too, so the fleet's consecutive failures open a host for
///   every process: the process whose failure opens it publishes ``CircuitOpened``; the others adopt
///   the open breaker when their own failure is counted, when they first meet the host, and when
///   they read the fleet's view again (the first request after each ``refreshInterval`` makes that
///   one round trip).
/// - When the cool-down is over, one process of the fleet gets the probe; the others keep failing
///   fast until it succeeds (the breaker closes) or fails (open again).
/// - A successful request makes no round trip unless it ends a run of failures; a failed one makes
///   one. A failure-rate policy trips per process, and the process that trips opens the host for all.
/// - When the store cannot answer, the breaker goes by this process's own counts for
///   ``retryInterval`` and publishes ``CircuitStoreFailed`` once.
public struct CircuitSharing: Sendable {
    /// The breakers' store.
    public let store: any CircuitStateStore
    /// How often a process reads the fleet's view of a host it keeps sending to.
    public var refreshInterval: Duration
    /// How long after a failed round trip the store is left alone.
    public var retryInterval: Duration

    /// Creates the sharing.
    /// - Parameters:
    ///   - store: The breakers' store.
    ///   - refreshInterval: How often the fleet's view is read (default 1 second).
    ///   - retryInterval: How long a failed store is left alone (default 5 seconds).
    public init(store: any CircuitStateStore, refreshInterval: Duration = .seconds(1), retryInterval: Duration = .seconds(5)) {
        self.store = store
        self.refreshInterval = refreshInterval
        self.retryInterval = retryInterval
    }
}
