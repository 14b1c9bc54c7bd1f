/// Token buckets kept outside the process, so that every process of a fleet takes its tokens from
/// the same buckets: a ``RateLimiter`` made with ``RateLimitSharing`` asks its ledger for tokens in
/// blocks (leases) instead of refilling buckets of its own.
///
/// `SwitchyardPostgres` has one on PostgreSQL (`PostgresRateLimitLedger`). Another engine fits
/// behind the same two methods: each must update the bucket atomically (one statement, a
/// transaction or a script on the server), refill it by the server's clock at the rate of the
/// ``RateLimits`` passed, and start a bucket it has never seen full.
public protocol RateLimitLedger: Sendable {
    /// Takes up to `count` tokens from `bucket` at once.
    /// - Parameters:
    ///   - count: The tokens wanted (at least 1).
    ///   - bucket: The bucket's key: a host (`api.example.com`, `127.0.0.1:8080`) or, with
    ///     ``RateLimits/Keying/shared``, an empty string.
    ///   - limits: The rate and burst the bucket refills by.
    /// - Returns: The tokens granted (possibly none) and when the next one is due.
    /// - Throws: When the ledger cannot answer (the limiter then follows ``RateLimitSharing/fallback``).
    func take(_ count: Int, from bucket: String, limits: RateLimits) async throws -> RateLimitGrant

    /// Holds `bucket` for every process: its next token comes due `duration` from now (a `Retry-After`).
    /// - Parameters:
    ///   - bucket: The bucket's key.
    ///   - duration: How long.
    ///   - limits: The rate and burst the bucket refills by.
    /// - Throws: When the ledger cannot answer.
    func hold(_ bucket: String, for duration: Duration, limits: RateLimits) async throws
}

/// What a ``RateLimitLedger`` granted.
public struct RateLimitGrant: Sendable, Hashable {
    /// The tokens granted: the requests that may start now.
    public var tokens: Int
    /// When the bucket has its next whole token, from now (zero when it has one already).
    public var nextTokenIn: Duration

    /// Creates a grant.
    /// - Parameters:
    ///   - tokens: The tokens granted.
    ///   - nextTokenIn: When the next one is due.
    public init(tokens: Int, nextTokenIn: Duration) {
        self.tokens = tokens
        self.nextTokenIn = nextTokenIn
    }
}

/// How a ``RateLimiter`` shares its buckets with a fleet through a ``RateLimitLedger``.
///
/// ```swift
/// let limits = RateLimits(requestsPerSecond: 50, burst: 50)
/// let limiter = RateLimiter(limits: limits, sharing: RateLimitSharing(ledger: PostgresRateLimitLedger(shared: shared)))
/// ```
///
/// Each process takes tokens from the ledger in leases of up to ``leaseSize`` (or as many as it has
/// requests waiting, if more) and hands them out locally, so most requests make no round trip to
/// the ledger. A leased token not used within ``leaseLifetime`` is dropped, never returned: the
/// fleet together never goes above the rate and burst, and falls short of it by at most one lease
/// per process and lifetime.
public struct RateLimitSharing: Sendable {
    /// What requests do while the ledger cannot answer.
    public enum Fallback: Sendable, Hashable {
        /// Fail open: each process goes by its own in-process buckets (the same limits), so the
        /// fleet may send up to N times the rate until the ledger answers again.
        case localBuckets
        /// Fail closed: requests fail with the ledger's error.
        case refuse
    }

    /// The buckets' store.
    public let ledger: any RateLimitLedger
    /// The tokens taken per round trip when fewer requests wait (at least 1).
    public var leaseSize: Int?
    /// How long leased tokens stay usable.
    public var leaseLifetime: Duration
    /// What requests do while the ledger cannot answer.
    public var fallback: Fallback
    /// How long after a failed round trip the ledger is left alone (requests follow ``fallback``
    /// without waiting for it), before it is tried again.
    public var retryInterval: Duration

    /// Creates the sharing.
    /// - Parameters:
    ///   - ledger: The buckets' store.
    ///   - leaseSize: Tokens per round trip; `nil` takes a tenth of a second's worth of the rate
    ///     (at least 1, at most the burst).
    ///   - leaseLifetime: How long leased tokens stay usable (default 1 second).
    ///   - fallback: What requests do while the ledger cannot answer (default: local buckets).
    ///   - retryInterval: How long a failed ledger is left alone (default 5 seconds).
    public init(
        ledger: any RateLimitLedger, leaseSize: Int? = nil, leaseLifetime: Duration = .seconds(1),
        fallback: Fallback = .localBuckets, retryInterval: Duration = .seconds(5)
    ) {
        self.ledger = ledger
        self.leaseSize = leaseSize
        self.leaseLifetime = leaseLifetime
        self.fallback = fallback
        self.retryInterval = retryInterval
    }
}
