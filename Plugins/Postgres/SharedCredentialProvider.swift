import Logging
import PostgresNIO
public import SwitchyardAuth
import SwitchyardCore

/// A bearer credential shared by every process of a fleet through PostgreSQL, refreshed once for
/// all of them: a ``SwitchyardAuth/CredentialProvider`` for `AuthPlugin`.
///
/// ```swift
/// let session = SharedCredentialProvider(shared: shared, key: "partner-api") { stale in
///     // POST to the token endpoint with stale?.refreshToken; return the new credential and the
///     // rotated refresh token.
///     try await partner.token(refreshing: stale?.refreshToken)
/// }
/// let auth = AuthPlugin(scope: RequestScope(hosts: ["api.partner.com"]), provider: session)
/// ```
///
/// - Each process keeps the credential it last saw and signs requests with it: no database round
///   trip per request.
/// - A refresh (after a `401`; the auth plugin already makes it one per process) locks the key's
///   row (`SELECT … FOR UPDATE`) in a transaction. When the row holds another token than the one
///   refused, another process refreshed meanwhile: that token is taken, no new fetch. Otherwise
///   `fetch` runs with the row's record, and its result replaces the row before the lock is
///   released. So many processes with many concurrent `401`s fetch once, and a rotating refresh
///   token is used once: only the holder of the row lock reads it, and the new one is written in
///   the same transaction.
/// - A process killed while holding the lock holds nothing: its connection ends, PostgreSQL rolls
///   its transaction back and releases the row. A live holder that takes too long makes the others
///   wait at most ``lockTimeout`` (then they fail with `sharedStateUnavailable`, and their requests
///   with `unauthorized`).
/// - When the database is down or slow, a refresh fails within the shared state's bound (the
///   auth plugin then fails the waiting requests with `unauthorized`) unless ``refreshesLocallyWhenUnavailable``
///   is set: then this process fetches on its own, which a rotating refresh token may not survive.
///
/// The table is `switchyard_credentials` (key, token, identity, refresh_token, version, updated_at).
public final class SharedCredentialProvider: CredentialProvider {
    /// A credential as the fleet stores it: the bearer token and the refresh token it came with.
    public struct Record: Sendable, Hashable {
        /// The bearer credential requests are signed with.
        public var credential: BearerCredential
        /// The token that gets the next credential, if the token endpoint uses one.
        public var refreshToken: String?

        /// Creates a record.
        /// - Parameters:
        ///   - credential: The bearer credential.
        ///   - refreshToken: The refresh token, if any.
        public init(credential: BearerCredential, refreshToken: String? = nil) {
            self.credential = credential
            self.refreshToken = refreshToken
        }
    }

    /// Gets a new credential: `stale` is the fleet's current record (`nil` when the fleet has none
    /// yet). Runs while the key's row is locked: at most one process runs it at a time.
    public typealias Fetch = @Sendable (_ stale: Record?) async throws -> Record

    /// The row the fleet shares.
    public let key: String
    /// How long a refresh waits for another process's lock on the row.
    public let lockTimeout: Duration
    /// Whether a refresh falls back to fetching in this process alone when the database fails.
    public let refreshesLocallyWhenUnavailable: Bool

    private let shared: PostgresSharedState
    private let fetch: Fetch
    private let known = Lock<Record?>(nil)
    private let fetches = Lock(0)

    /// Creates the provider of `key`'s credential.
    /// - Parameters:
    ///   - shared: The database.
    ///   - key: The credential's name in the fleet (one per account or API).
    ///   - lockTimeout: How long a refresh waits for another process's (default 10 s; also bounded
    ///     by the shared state's operation timeout).
    ///   - refreshesLocallyWhenUnavailable: Fetch in this process when the database fails (default
    ///     `false`).
    ///   - fetch: Gets a new credential from the token endpoint.
    public init(
        shared: PostgresSharedState, key: String, lockTimeout: Duration = .seconds(10),
        refreshesLocallyWhenUnavailable: Bool = false, fetch: @escaping Fetch
    ) {
        self.shared = shared
        self.key = key
        self.lockTimeout = lockTimeout
        self.refreshesLocallyWhenUnavailable = refreshesLocallyWhenUnavailable
        self.fetch = fetch
    }

    /// How many times this process ran `fetch`.
    public var fetchCount: Int { fetches.withLock { $0 } }

    /// The credential this process last saw; on first use, the fleet's (fetched once for the fleet
    /// when it has none).
    public func current() async throws -> BearerCredential {
        if let record = known.withLock({ $0 }) { return record.credential }
        return try await exchange(refusing: nil).credential
    }

    /// The fleet's credential newer than `stale`: another process's, or one fetched now under the
    /// row lock.
    public func refresh(stale: BearerCredential) async throws -> BearerCredential {
        try await exchange(refusing: stale).credential
    }

    /// Reads the row under its lock; fetches when it holds no credential or the refused one.
    private func exchange(refusing stale: BearerCredential?) async throws -> Record {
        let (key, fetch, fetches) = (key, fetch, fetches)
        let lockMilliseconds = max(1, Int(lockTimeout.milliseconds.rounded(.up)))
        do {
            let record = try await shared.transaction("refresh the credential \(key)") { connection in
                try await connection.query(PostgresQuery(unsafeSQL: "SET LOCAL lock_timeout = \(lockMilliseconds)"), logger: Self.quiet)
                try await connection.query(
                    "INSERT INTO switchyard_credentials (key) VALUES (\(key)) ON CONFLICT (key) DO NOTHING", logger: Self.quiet)
                let rows = try await connection.query(
                    "SELECT token, identity, refresh_token FROM switchyard_credentials WHERE key = \(key) FOR UPDATE",
                    logger: Self.quiet)
                var stored: Record?
                for try await (token, identity, refreshToken) in rows.decode((String?, String?, String?).self) {
                    stored = token.map { Record(credential: BearerCredential(token: $0, identity: identity), refreshToken: refreshToken) }
                }
                if let stored, stored.credential.token != stale?.token { return stored }
                let fresh: Record
                do {
                    fresh = try await fetch(stored)
                } catch {
                    throw PostgresSharedState.PassedThrough(error: error)
                }
                fetches.withLock { $0 += 1 }
                try await connection.query(
                    """
                    UPDATE switchyard_credentials SET token = \(fresh.credential.token), identity = \(fresh.credential.identity),
                    refresh_token = \(fresh.refreshToken), version = version + 1, updated_at = now() WHERE key = \(key)
                    """, logger: Self.quiet)
                return fresh
            }
            known.withLock { $0 = record }
            return record
        } catch let error as SwitchyardError where error.kind == .sharedStateUnavailable && refreshesLocallyWhenUnavailable {
            let fresh = try await fetch(known.withLock { $0 })
            fetches.withLock { $0 += 1 }
            known.withLock { $0 = fresh }
            return fresh
        }
    }

    private static var quiet: Logger { PostgresSharedState.quiet }
}
