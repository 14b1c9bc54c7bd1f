import Logging
import PostgresNIO
import SwitchyardCore
public import SwitchyardTraffic

/// Rate-limit buckets every process of a fleet shares through PostgreSQL: a
/// ``SwitchyardTraffic/RateLimitLedger`` for `RateLimiter`.
///
/// ```swift
/// let ledger = PostgresRateLimitLedger(shared: shared)
/// let limiter = RateLimiter(limits: RateLimits(requestsPerSecond: 50, burst: 50), sharing: RateLimitSharing(ledger: ledger))
/// configuration.plugins.append(.rateLimit(limiter))
/// ```
///
/// Each bucket is a row of `switchyard_rate_buckets` (key, tokens, refilled_at, granted). A lease
/// is one `INSERT … ON CONFLICT DO UPDATE` statement: it refills the row by the database's clock
/// (so the processes' clocks do not matter), takes up to the tokens asked for and returns what it
/// took, all under the row's lock — concurrent leases from many processes never hand out a token
/// twice. A `Retry-After` hold lowers the row's tokens below zero, so the bucket's next token comes
/// due when the server asked, for every process.
public struct PostgresRateLimitLedger: RateLimitLedger {
    private let shared: PostgresSharedState

    /// Creates the ledger.
    /// - Parameter shared: The database.
    public init(shared: PostgresSharedState) {
        self.shared = shared
    }

    /// Takes up to `count` tokens from the row of `bucket`, refilled at `limits` by the database's clock.
    /// - Parameters:
    ///   - count: The tokens wanted; `0` reads the bucket without taking any.
    ///   - bucket: The bucket's key.
    ///   - limits: The rate and burst.
    /// - Returns: The tokens taken and when the next is due.
    /// - Throws: `sharedStateUnavailable` when the database fails or does not answer in time.
    public func take(_ count: Int, from bucket: String, limits: RateLimits) async throws -> RateLimitGrant {
        var binds = PostgresBindings()
        binds.append(bucket)  // $1
        binds.append(Double(limits.burst))  // $2
        binds.append(Double(max(0, count)))  // $3
        binds.append(limits.requestsPerSecond)  // $4
        let query = PostgresQuery(unsafeSQL: Self.takeSQL, binds: binds)
        let (granted, left) = try await shared.statement("lease rate-limit tokens") { client in
            var row: (Double, Double) = (0, 0)
            for try await values in try await client.query(query, logger: PostgresSharedState.quiet).decode((Double, Double).self) {
                row = values
            }
            return row
        }
        let wait = left >= 1 ? 0 : (1 - left) / limits.requestsPerSecond
        return RateLimitGrant(tokens: Int(granted), nextTokenIn: .nanoseconds(Int64(min(wait, 86_400) * 1e9)))
    }

    /// Holds the row of `bucket`: its next token comes due `duration` from now.
    /// - Parameters:
    ///   - bucket: The bucket's key.
    ///   - duration: How long.
    ///   - limits: The rate and burst.
    /// - Throws: `sharedStateUnavailable` when the database fails or does not answer in time.
    public func hold(_ bucket: String, for duration: Duration, limits: RateLimits) async throws {
        var binds = PostgresBindings()
        binds.append(bucket)  // $1
        binds.append(Double(limits.burst))  // $2
        binds.append(limits.requestsPerSecond)  // $3
        binds.append(duration.milliseconds / 1000)  // $4
        let query = PostgresQuery(unsafeSQL: Self.holdSQL, binds: binds)
        try await shared.statement("hold a rate-limit bucket") { client in
            _ = try await client.query(query, logger: PostgresSharedState.quiet)
        }
    }

    /// The row's tokens refilled to now: `$2` burst, and the rate in `rate`.
    private static func refilled(rate: String) -> String {
        "LEAST($2, b.tokens + \(rate) * GREATEST(0, EXTRACT(EPOCH FROM statement_timestamp() - b.refilled_at)::float8))"
    }

    /// `$1` key, `$2` burst, `$3` tokens wanted, `$4` rate.
    private static let takeSQL: String = {
        let refilled = Self.refilled(rate: "$4")
        let granted = "GREATEST(0, LEAST($3, FLOOR(\(refilled) + 1e-9)))"
        return """
            INSERT INTO switchyard_rate_buckets AS b (key, tokens, refilled_at, granted)
            VALUES ($1, $2 - LEAST($3, $2), statement_timestamp(), LEAST($3, $2))
            ON CONFLICT (key) DO UPDATE SET
                tokens = \(refilled) - \(granted),
                refilled_at = GREATEST(b.refilled_at, statement_timestamp()),
                granted = \(granted)
            RETURNING granted, tokens
            """
    }()

    /// `$1` key, `$2` burst, `$3` rate, `$4` hold in seconds.
    private static let holdSQL: String = """
        INSERT INTO switchyard_rate_buckets AS b (key, tokens, refilled_at, granted)
        VALUES ($1, 1 - $4 * $3, statement_timestamp(), 0)
        ON CONFLICT (key) DO UPDATE SET
            tokens = LEAST(\(refilled(rate: "$3")), 1 - $4 * $3),
            refilled_at = GREATEST(b.refilled_at, statement_timestamp()),
            granted = 0
        """
}
