public import SwitchyardCore

extension Plugin {
    /// The layer of ``tracking(_:)``: the first call link after events, outside timing statistics,
    /// so the tracker sees the whole call.
    public static let trackingLayer: Layer = .outermost
    /// The layer of ``connectivity(_:)``: among the inner call plugins, above the retry link.
    public static let connectivityLayer: Layer = .holding
    /// The layer of ``concurrencyLimit(_:)``: the last attempt link, so a slot is held only while
    /// the exchange is on the wire.
    public static let concurrencyLimitLayer: Layer = .nextToTransport
    /// The layer of ``rateLimit(_:name:)``: the concurrency limit's, outside it (a relation), so a
    /// request waiting for a token holds no slot.
    public static let rateLimitLayer: Layer = .nextToTransport

    /// A plugin that follows every call through `tracker`: activity for a spinner, and group
    /// cancellation by tag (see ``ExchangeTracker``).
    ///
    /// ```swift
    /// let tracker = ExchangeTracker()
    /// configuration.plugins.append(.tracking(tracker))
    /// tracker.cancel(tagged: "screen:search")
    /// ```
    ///
    /// Named `tracking`, in the call position at ``trackingLayer``.
    /// - Parameter tracker: The tracker; share one between clients to follow them together.
    /// - Returns: The plugin.
    public static func tracking(_ tracker: ExchangeTracker) -> Plugin {
        Plugin(
            name: "tracking", position: .call, layer: trackingLayer, interceptors: [TrackingInterceptor(tracker: tracker)])
    }

    /// A plugin that holds requests asking for it (``RequestOptions/waitsForConnectivity``) while
    /// `source` reports offline, and makes the retry link wait for the network instead of spending
    /// attempts (an `AttemptHold`; see ``ConnectivityInterceptor``).
    ///
    /// Named `connectivity`, in the call position at ``connectivityLayer``.
    /// - Parameter source: Where the client learns whether the network is reachable.
    /// - Returns: The plugin.
    public static func connectivity(_ source: any ConnectivitySource) -> Plugin {
        Plugin(
            name: "connectivity", position: .call, layer: connectivityLayer,
            // The retry link waits for the network under it instead of spending attempts offline.
            relations: [.outside("retry")],
            interceptors: [ConnectivityInterceptor(source: source)])
    }

    /// A plugin that keeps at most N exchanges on the wire at once, overall and per host, with a
    /// priority queue (see ``ConcurrencyLimiter``). Holds the slots, so keep one limiter per client.
    ///
    /// Named `concurrencyLimit`, in the attempt position at ``concurrencyLimitLayer``.
    /// - Parameter limiter: The limiter.
    /// - Returns: The plugin.
    public static func concurrencyLimit(_ limiter: ConcurrencyLimiter) -> Plugin {
        Plugin(
            name: "concurrencyLimit", position: .attempt, layer: concurrencyLimitLayer,
            interceptors: [ConcurrencyLimitInterceptor(limiter: limiter)])
    }

    /// A plugin that lets at most N requests a second start, per host or for a scope, with bursts
    /// (a token bucket; see ``RateLimiter``). Holds the buckets, so keep one limiter per client.
    ///
    /// ```swift
    /// configuration.plugins.append(.rateLimit(RateLimiter(requestsPerSecond: 5, burst: 10)))
    /// ```
    ///
    /// Named `rateLimit` unless told otherwise (two limiters in one client need two names, e.g. one
    /// per host and one shared by an API's scope), in the attempt position at ``rateLimitLayer``.
    /// - Parameters:
    ///   - limiter: The limiter.
    ///   - name: The plugin's name, unique within a client.
    /// - Returns: The plugin.
    public static func rateLimit(_ limiter: RateLimiter, name: String = "rateLimit") -> Plugin {
        Plugin(
            name: name, position: .attempt, layer: rateLimitLayer, relations: [.outside("concurrencyLimit")],
            interceptors: [RateLimitInterceptor(limiter: limiter)])
    }
}
