public import Logging
import PostgresNIO
public import SwitchyardCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A connection pool to the PostgreSQL database a fleet of processes shares its state through: the
/// stores of this module (``SharedCredentialProvider``) take one.
///
/// ```swift
/// let shared = try PostgresSharedState(url: "postgres://app@db.internal:5432/switchyard")
/// let session = SharedCredentialProvider(shared: shared, key: "partner-api") { stale in
///     try await tokenEndpoint.fetch(refreshing: stale?.refreshToken)
/// }
/// // … register AuthPlugin(scope: …, provider: session) with the client …
/// await shared.shutdown()
/// ```
///
/// The URL is `postgres://user@host:port/database`; a password comes from `PGPASSWORD`, as libpq
/// reads it (or from the URL, which is then never repeated in errors or logs). Every operation is
/// bounded by ``operationTimeout``: when the database is slow or down, the store's caller gets a
/// ``SwitchyardCore/SwitchyardError/Kind/sharedStateUnavailable`` error at the bound instead of
/// waiting on it. The tables are created on first use (`CREATE TABLE IF NOT EXISTS`).
public final class PostgresSharedState: Sendable {
    /// How long one operation on the database may take, connecting included.
    public let operationTimeout: Duration
    /// How long after the database failed to answer (down, unreachable, or slower than the bound)
    /// operations fail at once with the same error instead of waiting for it again.
    public let retryInterval: Duration
    /// `host:port/database`, for messages: the URL without user and password.
    public let serverDescription: String

    private let client: PostgresClient
    private let runner: Task<Void, Never>
    private let schema = Lock<Task<Void, any Error>?>(nil)
    private let watchdog = OperationWatchdog()
    /// The last failure to answer, and until when operations fail at once with it.
    private let down = Lock<(error: SwitchyardError, until: ContinuousClock.Instant)?>(nil)

    /// Connects to the database at `url` (lazily: the first operation opens a connection).
    /// - Parameters:
    ///   - url: `postgres://user[:password]@host[:port]/database`.
    ///   - password: The password, when not in the URL; `nil` reads `PGPASSWORD`.
    ///   - operationTimeout: The bound of each operation (default 5 seconds).
    ///   - retryInterval: How long operations fail at once after the database failed to answer
    ///     (default 5 seconds).
    ///   - maximumConnections: The pool's size (default 4).
    ///   - logger: Where the pool's background messages go (connections made and lost); none by default.
    /// - Throws: ``SwitchyardCore/SwitchyardError/Kind/invalidRequest`` for a URL that is not one.
    public init(
        url: String, password: String? = nil, operationTimeout: Duration = .seconds(5), retryInterval: Duration = .seconds(5),
        maximumConnections: Int = 4,
        logger: Logger = PostgresSharedState.quiet
    ) throws(SwitchyardError) {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? ""),
            let host = components.host, !host.isEmpty, let user = components.user, !user.isEmpty
        else {
            throw .invalidRequest("A shared-state URL is postgres://user@host:port/database; this one is not.")
        }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        var configuration = PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: user,
            password: components.password ?? password ?? ProcessInfo.processInfo.environment["PGPASSWORD"],
            database: database.isEmpty ? nil : database, tls: .disable)
        configuration.options.maximumConnections = max(1, maximumConnections)
        // The pool arms a keep-alive and an idle timer each time a connection goes back to it and
        // keeps the cancelled ones until they would have fired: with the defaults (30 and 60 s) a
        // store making hundreds of round trips a second (a body streaming into the cache) grew by
        // 1.6 KB a round trip, without bound over a 1 GiB body. Idle connections close after 5 s
        // instead, which needs no keep-alive and holds what the timers keep to those 5 seconds.
        configuration.options.keepAliveBehavior = nil
        configuration.options.connectionIdleTimeout = .seconds(5)
        configuration.options.connectTimeout = operationTimeout
        self.operationTimeout = operationTimeout
        self.retryInterval = retryInterval
        self.serverDescription = "\(host):\(components.port ?? 5432)/\(database)"
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.runner = Task { await client.run() }
    }

    /// Closes the pool's connections; operations after it fail.
    public func shutdown() async {
        runner.cancel()
        await runner.value
    }

    deinit { runner.cancel() }

    /// Runs `operation` in one transaction, within ``operationTimeout``, after making sure the
    /// tables exist.
    /// - Parameters:
    ///   - name: What the operation does, for the error message.
    ///   - operation: The queries; the transaction commits when it returns and rolls back when it throws.
    /// - Throws: ``SwitchyardCore/SwitchyardError/Kind/sharedStateUnavailable`` when the database fails
    ///   or does not answer in time; what `operation` throws wrapped in ``PassedThrough`` or as a
    ///   `SwitchyardError`, as it is.
    func transaction<Value: Sendable>(
        _ name: String, _ operation: @escaping @Sendable (PostgresConnection) async throws -> Value
    ) async throws -> Value {
        try await bounded(name) { client in
            try await client.withTransaction(logger: Self.quiet) { connection in try await operation(connection) }
        }
    }

    /// Runs `operation` (one statement, which PostgreSQL runs as a transaction of its own) on a
    /// pooled connection, within ``operationTimeout``, after making sure the tables exist.
    /// - Parameters:
    ///   - name: What the operation does, for the error message.
    ///   - operation: The statement.
    /// - Throws: As ``transaction(_:_:)``.
    func statement<Value: Sendable>(
        _ name: String, _ operation: @escaping @Sendable (PostgresClient) async throws -> Value
    ) async throws -> Value {
        try await bounded(name, operation)
    }

    private func bounded<Value: Sendable>(
        _ name: String, _ operation: @escaping @Sendable (PostgresClient) async throws -> Value
    ) async throws -> Value {
        let now = ContinuousClock.now
        if let down = down.withLock({ $0 }), now < down.until { throw down.error }
        let deadline = now.advanced(by: operationTimeout)
        let client = client
        do {
            // The timeout's message is built only if it fires: a shared cache hit runs this per request.
            return try await race(deadline, timeoutError: self.unavailable(name, "no answer within \(self.operationTimeout)")) {
                try await self.ensureSchema()
                return try await operation(client)
            }
        } catch let error as SwitchyardError {
            if error.kind == .sharedStateUnavailable { markDown(error) }
            throw error
        } catch let error as PassedThrough {
            throw error.error
        } catch let error as PSQLError where error.serverInfo != nil {
            throw unavailable(name, Self.describe(error))  // the server answered: no reason to stop asking it
        } catch {
            let failure = unavailable(name, Self.describe(error))
            markDown(failure)
            throw failure
        }
    }

    /// Runs `operation` in a task of its own and returns its result, or throws `timeoutError` at
    /// `deadline` (or `cancelled` when the caller is cancelled) without waiting for it: the pool may
    /// take long to give up on a server that does not answer, and the caller's bound is what counts.
    /// The operation's task is cancelled then and ends on its own (its transaction rolls back).
    private func race<Value: Sendable>(
        _ deadline: ContinuousClock.Instant, timeoutError: @autoclosure @escaping @Sendable () -> SwitchyardError,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let waiter = Lock<CheckedContinuation<Value, any Error>?>(nil)
        let work = Lock<Task<Void, Never>?>(nil)
        let watchdog = watchdog
        @Sendable func finish(_ result: Result<Value, any Error>) {
            guard let continuation = waiter.withLock({ $0.take() }) else { return }
            continuation.resume(with: result)
            work.withLock { $0?.cancel() }
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiter.withLock { $0 = continuation }
                let timeout = watchdog.arm(deadline) { finish(.failure(timeoutError())) }
                let task = Task {
                    do { finish(.success(try await operation())) } catch { finish(.failure(error)) }
                    watchdog.disarm(timeout)
                }
                work.withLock { $0 = task }
                // Finished before the task was stored: nobody else cancels it.
                if waiter.withLock({ $0 == nil }) { task.cancel() }
            }
        } onCancel: {
            finish(.failure(SwitchyardError.cancelled))
        }
    }

    /// Makes operations fail at once with `error` for ``retryInterval``.
    private func markDown(_ error: SwitchyardError) {
        let until = ContinuousClock.now.advanced(by: retryInterval)
        down.withLock { $0 = (error, until) }
    }

    /// An error of the caller's own (not the database's), passed through a transaction as it is.
    struct PassedThrough: Error {
        let error: any Error
    }

    /// The failure of operation `name` on this database, without credentials.
    func unavailable(_ name: String, _ reason: String) -> SwitchyardError {
        SwitchyardError(.sharedStateUnavailable, "The shared state at \(serverDescription) could not \(name): \(reason).")
    }

    private func ensureSchema() async throws {
        let task = schema.withLock { task in
            if let task { return task }
            let client = client
            let created = Task {
                // Made already (the usual case): one query, no lock, so that a fleet starting at once
                // does not queue every process on the creators' lock.
                let last = try await client.query("SELECT to_regclass('switchyard_cache_entries') IS NOT NULL", logger: Self.quiet)
                for try await exists in last.decode(Bool.self) where exists { return }
                // One creator at a time across the fleet: concurrent CREATE TABLE IF NOT EXISTS race in PostgreSQL.
                try await client.withTransaction(logger: Self.quiet) { connection in
                    try await connection.query("SELECT pg_advisory_xact_lock(\(Self.schemaLockID))", logger: Self.quiet)
                    for table in Self.tables { try await connection.query(table, logger: Self.quiet) }
                }
            }
            task = created
            return created
        }
        do {
            _ = try await task.value
        } catch {
            schema.withLock { $0 = nil }  // try again next time
            throw error
        }
    }

    /// The advisory lock that serialises schema creation (an arbitrary constant: "SwYd").
    private static let schemaLockID: Int64 = 0x5377_5964

    /// The tables of every store: credentials, rate-limit buckets, circuit breakers, the HTTP cache.
    private static let tables: [PostgresQuery] = [
        """
        CREATE TABLE IF NOT EXISTS switchyard_credentials (
            key text PRIMARY KEY,
            token text,
            identity text,
            refresh_token text,
            version bigint NOT NULL DEFAULT 0,
            updated_at timestamptz NOT NULL DEFAULT now()
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS switchyard_rate_buckets (
            key text PRIMARY KEY,
            tokens double precision NOT NULL,
            refilled_at timestamptz NOT NULL,
            granted double precision NOT NULL DEFAULT 0
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS switchyard_circuits (
            key text PRIMARY KEY,
            failures integer NOT NULL DEFAULT 0,
            open_until timestamptz,
            probe_until timestamptz
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS switchyard_cache_bodies (
            body_id bigserial PRIMARY KEY,
            started_at timestamptz NOT NULL DEFAULT now()
        )
        """,
        // Bodies are stored as they came (often compressed already): no second compression. Created
        // once, with no ALTER on later starts: its exclusive lock would queue every process's reads
        // behind the longest body being streamed.
        """
        DO $$ BEGIN
            IF to_regclass('switchyard_cache_chunks') IS NULL THEN
                CREATE TABLE switchyard_cache_chunks (
                    body_id bigint NOT NULL REFERENCES switchyard_cache_bodies ON DELETE CASCADE,
                    seq integer NOT NULL,
                    data bytea NOT NULL,
                    PRIMARY KEY (body_id, seq)
                );
                ALTER TABLE switchyard_cache_chunks ALTER COLUMN data SET STORAGE EXTERNAL;
            END IF;
        END $$
        """,
        """
        CREATE TABLE IF NOT EXISTS switchyard_cache_entries (
            store text NOT NULL,
            partition text NOT NULL,
            resource text NOT NULL,
            variants text,
            status integer NOT NULL DEFAULT 0,
            request_time double precision NOT NULL DEFAULT 0,
            response_time double precision NOT NULL DEFAULT 0,
            fields text NOT NULL DEFAULT '',
            body_id bigint,
            body_size bigint NOT NULL DEFAULT 0,
            stored_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (store, partition, resource)
        )
        """
    ]

    /// A logger that writes nothing: the default for the pool's background messages.
    public static let quiet = Logger(label: "switchyard.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A database error's reason, without the query's parameters.
    private static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                return "the server said \"\(message)\" (\(error.serverInfo?[.sqlState] ?? "?"))"
            }
            return "\(error.code)"
        }
        return String(describing: type(of: error))
    }
}
