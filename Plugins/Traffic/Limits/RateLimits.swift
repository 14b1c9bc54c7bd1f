public import SwitchyardCore

/// How many requests may start per second, per host or for a whole scope: a token bucket that
/// holds up to ``burst`` tokens and gains ``requestsPerSecond`` of them every second. Each attempt
/// takes one token; without one it waits in a queue ordered by `RequestOptions.priority` (first
/// in, first out within one priority).
///
/// ```swift
/// // At most 5 requests a second to each host, with bursts of up to 10.
/// let limiter = RateLimiter(limits: RateLimits(requestsPerSecond: 5, burst: 10))
/// var configuration = ClientConfiguration()
/// configuration.plugins.append(.rateLimit(limiter))
/// ```
///
/// - A bucket starts full: the first ``burst`` requests go at once.
/// - Each attempt (every retry and redirect hop) takes a token just before the concurrency limiter
///   and the transport; a retry's back-off takes none. The token is spent when the attempt starts,
///   whatever its outcome.
/// - A queued request honours cancellation and its deadline: it leaves the queue with
///   `SwitchyardError.Kind.cancelled` or `SwitchyardError.Kind.timeout`, never reaches the
///   wire, and takes no token. Time spent queued is part of `PipelineTimings.queued`.
/// - A new request never overtakes a queued one for the same bucket.
/// - Requests outside ``scope`` pass straight through and take no token.
/// - A server that answers `429 Too Many Requests` or `503 Service Unavailable` with a
///   `Retry-After` field holds the bucket that request took its token from: the next token comes
///   due when `Retry-After` says (at most ``maxRetryAfterHold`` from now), so the requests behind
///   it wait in the queue instead of meeting the same answer, and the rate resumes from there with
///   one token, not a burst. The limiter publishes ``RateLimitHeld`` then.
public struct RateLimits: Sendable, Hashable {
    /// Which requests share one bucket.
    public enum Keying: Sendable, Hashable {
        /// One bucket per host: the request's authority without user information, lower-cased
        /// (`api.example.com`, `127.0.0.1:8080`).
        case host
        /// One bucket for every request in ``RateLimits/scope``.
        case shared
    }

    /// The lowest rate: one request every 1,000 seconds.
    public static let minimumRequestsPerSecond = 0.001
    /// The highest rate: a billion requests a second (in effect, no rate limit beyond the burst).
    public static let maximumRequestsPerSecond = 1e9
    /// The longest a `Retry-After` answer holds a bucket unless said otherwise: one minute.
    public static let defaultMaxRetryAfterHold: Duration = .seconds(60)

    /// Tokens gained per second: the sustained request rate.
    public var requestsPerSecond: Double
    /// Tokens a bucket holds at most: how many requests may go at once after a quiet spell.
    public var burst: Int
    /// One bucket per host (the default) or one for the scope.
    public var keying: Keying
    /// The requests the limit applies to (default: all).
    public var scope: RequestScope
    /// The longest a `429` or `503` answer's `Retry-After` holds the bucket (a longer one holds it
    /// this long); `nil` ignores such answers. Default: ``defaultMaxRetryAfterHold``.
    public var maxRetryAfterHold: Duration?

    /// Creates limits. A rate outside ``minimumRequestsPerSecond`` … ``maximumRequestsPerSecond``
    /// (or not a number) is moved to the nearer bound; a burst below 1 is raised to 1, a negative
    /// hold to zero.
    /// - Parameters:
    ///   - requestsPerSecond: The sustained rate, e.g. `5` or `0.5` (one every two seconds).
    ///   - burst: The most requests let through at once after a quiet spell.
    ///   - keying: One bucket per host, or one for the scope.
    ///   - scope: The requests the limit applies to.
    ///   - maxRetryAfterHold: The longest a `429` or `503` answer's `Retry-After` holds the
    ///     bucket; `nil` ignores such answers.
    public init(
        requestsPerSecond: Double, burst: Int, keying: Keying = .host, scope: RequestScope = .all,
        maxRetryAfterHold: Duration? = defaultMaxRetryAfterHold
    ) {
        let rate = requestsPerSecond.isNaN ? Self.minimumRequestsPerSecond : requestsPerSecond
        self.requestsPerSecond = min(max(rate, Self.minimumRequestsPerSecond), Self.maximumRequestsPerSecond)
        self.burst = max(1, burst)
        self.keying = keying
        self.scope = scope
        self.maxRetryAfterHold = maxRetryAfterHold.map { max(.zero, $0) }
    }
}
