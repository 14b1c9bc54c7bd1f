import Logging
import PostgresNIO
import SwitchyardCore
public import SwitchyardTraffic

/// Circuit breakers every process of a fleet shares through PostgreSQL: a
/// ``SwitchyardTraffic/CircuitStateStore`` for `CircuitBreaker`.
///
/// ```swift
/// let store = PostgresCircuitStateStore(shared: shared)
/// let breaker = CircuitBreaker(policy: .consecutiveFailures(3), sharing: CircuitSharing(store: store))
/// configuration.plugins.append(.circuitBreaker(breaker))
/// ```
///
/// Each breaker is a row of `switchyard_circuits` (key, failures, open_until, probe_until), changed
/// by one statement at a time under the row's lock, with the database's clock measuring the
/// cool-down: failures in a row across the fleet open it, one process claims the probe when the
/// cool-down is over, and that probe's success closes it.
public struct PostgresCircuitStateStore: CircuitStateStore {
    private let shared: PostgresSharedState

    /// Creates the store.
    /// - Parameter shared: The database.
    public init(shared: PostgresSharedState) {
        self.shared = shared
    }

    /// The row of `key`, as a view.
    /// - Parameter key: The breaker's key.
    /// - Returns: The view (closed for a key never seen).
    /// - Throws: `sharedStateUnavailable` when the database fails or does not answer in time.
    public func state(of key: String) async throws -> SharedCircuit {
        var binds = PostgresBindings()
        binds.append(key)
        let query = PostgresQuery(unsafeSQL: "SELECT failures::int8, \(Self.openFor) FROM switchyard_circuits WHERE key = $1", binds: binds)
        return try await shared.statement("read a circuit breaker") { client in
            var view = SharedCircuit(failures: 0, openFor: nil)
            for try await (failures, openFor) in try await client.query(query, logger: PostgresSharedState.quiet).decode(
                (Int, Double?).self)
            {
                view = Self.view(failures, openFor)
            }
            return view
        }
    }

    /// Counts a failure in the row of `key`.
    /// - Parameters:
    ///   - key: The breaker's key.
    ///   - opens: Open whatever the count.
    ///   - threshold: Failures in a row that open it.
    ///   - openDuration: The cool-down.
    /// - Returns: The view after it.
    /// - Throws: `sharedStateUnavailable` when the database fails or does not answer in time.
    public func recordFailure(of key: String, opens: Bool, threshold: Int, openDuration: Duration) async throws -> SharedCircuit {
        var binds = PostgresBindings()
        binds.append(key)
        binds.append(opens)
        binds.append(threshold)
        binds.append(openDuration.milliseconds / 1000)
        let query = PostgresQuery(unsafeSQL: Self.failureSQL, binds: binds)
        return try await shared.statement("count a failure in a circuit breaker") { client in
            var view = SharedCircuit(failures: 0, openFor: nil)
            for try await (failures, openFor) in try await client.query(query, logger: PostgresSharedState.quiet).decode(
                (Int, Double?).self)
            {
                view = Self.view(failures, openFor)
            }
            return view
        }
    }

    /// Ends the run of failures of `key`; closes it after a successful probe.
    /// - Parameters:
    ///   - key: The breaker's key.
    ///   - isProbe: Whether the call was a probe.
    /// - Throws: `sharedStateUnavailable` when the database fails or does not answer in time.
    public func recordSuccess(of key: String, isProbe: Bool) async throws {
        var binds = PostgresBindings()
        binds.append(key)
        binds.append(isProbe)
        let query = PostgresQuery(unsafeSQL: Self.successSQL, binds: binds)
        try await shared.statement("count a success in a circuit breaker") { client in
            _ = try await client.query(query, logger: PostgresSharedState.quiet)
        }
    }

    /// Claims the probe of `key` for `duration`.
    /// - Parameters:
    ///   - key: The breaker's key.
    ///   - duration: How long the claim holds.
    /// - Returns: `nil` when claimed; else the view.
    /// - Throws: `sharedStateUnavailable` when the database fails or does not answer in time.
    public func claimProbe(of key: String, for duration: Duration) async throws -> SharedCircuit? {
        var binds = PostgresBindings()
        binds.append(key)
        binds.append(duration.milliseconds / 1000)
        let query = PostgresQuery(unsafeSQL: Self.claimSQL, binds: binds)
        return try await shared.statement("claim a circuit breaker's probe") { client in
            var view: SharedCircuit? = SharedCircuit(failures: 0, openFor: nil)
            let rows = try await client.query(query, logger: PostgresSharedState.quiet).decode((Int, Int, Double?).self)
            for try await (claimed, failures, openFor) in rows {
                view = claimed > 0 ? nil : Self.view(failures, openFor)
            }
            return view
        }
    }

    private static func view(_ failures: Int, _ openFor: Double?) -> SharedCircuit {
        SharedCircuit(failures: failures, openFor: openFor.map { .milliseconds(Int64(($0 * 1000).rounded(.up))) })
    }

    /// Seconds the breaker refuses calls for (its cool-down, or another process's probe claim); zero
    /// once its probe may go; `NULL` when closed.
    private static let openFor = """
        CASE WHEN open_until IS NULL THEN NULL
        ELSE GREATEST(0, EXTRACT(EPOCH FROM GREATEST(open_until, probe_until) - statement_timestamp())::float8) END
        """

    /// `$1` key, `$2` opens, `$3` threshold, `$4` cool-down in seconds.
    private static let failureSQL = """
        INSERT INTO switchyard_circuits AS c (key, failures, open_until)
        VALUES ($1, CASE WHEN $2 OR 1 >= $3 THEN 0 ELSE 1 END,
                CASE WHEN $2 OR 1 >= $3 THEN statement_timestamp() + make_interval(secs => $4) END)
        ON CONFLICT (key) DO UPDATE SET
            failures = CASE WHEN c.open_until > statement_timestamp() THEN c.failures
                WHEN $2 OR c.failures + 1 >= $3 THEN 0 ELSE c.failures + 1 END,
            open_until = CASE WHEN c.open_until > statement_timestamp() THEN c.open_until
                WHEN $2 OR c.failures + 1 >= $3 THEN statement_timestamp() + make_interval(secs => $4) ELSE c.open_until END,
            probe_until = CASE WHEN c.open_until > statement_timestamp() THEN c.probe_until
                WHEN $2 OR c.failures + 1 >= $3 THEN NULL ELSE c.probe_until END
        RETURNING failures::int8, \(openFor)
        """

    /// `$1` key, `$2` is a probe.
    private static let successSQL = """
        UPDATE switchyard_circuits SET failures = 0,
            open_until = CASE WHEN $2 THEN NULL ELSE open_until END,
            probe_until = CASE WHEN $2 THEN NULL ELSE probe_until END
        WHERE key = $1 AND (open_until IS NULL OR open_until <= statement_timestamp())
        """

    /// `$1` key, `$2` claim in seconds. The outer query reads the row as it was before the claim.
    private static let claimSQL = """
        WITH claimed AS (
            UPDATE switchyard_circuits SET probe_until = statement_timestamp() + make_interval(secs => $2)
            WHERE key = $1 AND open_until <= statement_timestamp()
                AND (probe_until IS NULL OR probe_until <= statement_timestamp())
            RETURNING key
        )
        SELECT (SELECT count(*) FROM claimed)::int8, failures::int8, \(openFor) FROM switchyard_circuits WHERE key = $1
        """
}
