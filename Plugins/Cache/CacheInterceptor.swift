public import HTTPTypes
public import SwitchyardCore

/// The link of `Plugin.cache(_:name:scope:placement:)`: answers `GET` and `HEAD` from an ``HTTPCache`` under each request's
/// ``CachePolicy``, revalidates stale entries, stores what RFC 9111 allows as it streams to the
/// caller, and invalidates a URL's entries when an unsafe method succeeds on it.
///
/// It records where each response came from on the exchange (`ExchangeContext.provenance`):
/// `network`, `cache`, `revalidated` or `stale`, with the response's age; the `succeeded` event
/// carries it. A response from the cache has an `Age` header field.
///
/// Beyond freshness and validation it honours:
/// - `stale-while-revalidate=N` (RFC 5861): within `N` seconds past freshness a `GET` gets the
///   stale response at once (`stale`) while one background revalidation per entry refreshes it;
/// - a single `Range: bytes=…` of a `GET`: answered with a `206` from a stored complete response or
///   from stored parts that hold those bytes; `206`s with one strong validator are combined, into
///   a complete response once they cover it (RFC 9111 §3.3, §3.4); any other range goes to the network.
///   With `If-Range` the range applies only while the stored response is the representation it
///   names (its strong `ETag`, or its `Last-Modified` when that is a strong validator); otherwise
///   the answer is the whole stored response (RFC 9110 §13.1.5);
/// - a response's `no-cache="Field, …"`: stored and reused without those fields (§5.2.2.4);
/// - a request's `max-stale[=N]`, `min-fresh=N`, `no-store` (a stored response may answer it,
///   nothing is stored) and `only-if-cached` (a usable stored response, else a `504` made here,
///   provenance `cache`, nothing sent) (§5.2.1);
/// - ``SwitchyardCore/RequestOptions/cacheStoresResponse`` and ``CacheConfiguration/willStore``.
///
/// What it costs per request: a `GET` computes its key and does one store lookup (a lock and a
/// dictionary lookup in memory; a file read and a SHA-256 on disk); other methods pass through
/// (an unsafe one removes one key after it succeeds). Its figures are in `Benchmarks/results`
/// (`CacheBenchmarks`: memory and disk hits against a round trip on loopback).
public struct CacheInterceptor: Interceptor {
    /// The cache.
    public let cache: HTTPCache

    /// Methods that cannot change the resource (RFC 9110 §9.2.1); others invalidate it.
    public static let safeMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .trace]

    /// Failures after which ``CachePolicy/staleIfError`` serves the stored response: the connection
    /// could not be made or broke, TLS failed, the response was malformed, or an attempt, the idle
    /// timeout, ``CacheConfiguration/networkTimeout`` or the exchange's own deadline passed.
    public static let networkFailureKinds: Set<SwitchyardError.Kind> = [
        .connectionFailed, .timeout, .transport, .tls, .protocolViolation
    ]

    /// The statuses after which ``CachePolicy/staleIfError`` serves the stored response, as RFC 5861
    /// §4 names them: `500`, `502`, `503` and `504`. They count whether the response reaches the
    /// cache as it is or as the `SwitchyardError.Kind.httpStatus` error of the
    /// status-validation link below it (`ClientConfiguration.validation`).
    public static let errorStatuses: Set<Int> = [500, 502, 503, 504]

    /// Whether `error` is a failure after which ``CachePolicy/staleIfError`` serves the stored
    /// response: one of ``networkFailureKinds``, or an `httpStatus` error for one of
    /// ``errorStatuses``.
    /// - Parameter error: What the rest of the chain threw.
    /// - Returns: `true` when the stored response should answer instead.
    public static func isNetworkFailure(_ error: SwitchyardError) -> Bool {
        if networkFailureKinds.contains(error.kind) { return true }
        guard error.kind == .httpStatus, let code = error.response?.status.code else { return false }
        return errorStatuses.contains(code)
    }

    /// Creates the interceptor.
    /// - Parameter cache: The cache.
    public init(cache: HTTPCache) {
        self.cache = cache
    }

    /// Answers from the cache, the network, or both, under the request's policy.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The exchange; its `ExchangeContext.provenance` is set here.
    ///   - next: The rest of the chain.
    /// - Returns: The response.
    /// - Throws: ``SwitchyardCore/SwitchyardError/Kind/cacheMiss`` for a cache-only miss (unless
    ///   ``SwitchyardCore/RequestOptions/cacheMissAsksNetwork``), or the network's error.
    public nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        let head = request.head
        guard head.method == .get || head.method == .head else {
            let response = try await next(request)
            if !Self.safeMethods.contains(head.method), (200..<400).contains(response.head.status.code) {
                do {
                    try await cache.invalidate(head, response: response.head.headerFields)
                } catch {
                    context.reportCacheStoreFailure("remove", error, request: request)
                }
            }
            return response
        }
        let policy = request.options.cachePolicy ?? cache.configuration.defaultPolicy
        let fields = head.headerFields
        let directives = CacheControl(fields)
        // A single byte range of a GET may be answered from what is stored; other ranges, and the
        // caller's own conditional requests, bypass the cache.
        let rangeValue = fields[.range]
        var range = rangeValue.flatMap { head.method == .get ? ByteRangeRequest($0) : nil }
        guard let primary = cache.primaryKey(for: head), fields[.ifNoneMatch] == nil, fields[.ifModifiedSince] == nil,
            rangeValue == nil || range != nil
        else {
            if policy == .cacheOnly, !request.options.cacheMissAsksNetwork {
                throw SwitchyardError.cacheMiss("\(head.method) \(head.path ?? "/")")
            }
            if directives.onlyIfCached { return Self.gatewayTimeout(context) }
            return try await next(request)
        }
        var stored: (key: CacheKey, response: CachedResponse)?
        do {
            stored = try await cache.lookup(head, primary: primary)
        } catch {
            context.reportCacheStoreFailure("read", error, request: request)
        }
        if range != nil, let ifRange = fields[.ifRange] {
            // RFC 9110 §13.1.5: the range applies to the representation the validator names; for any
            // other, the answer is the whole representation. Without a stored one the request goes
            // to the network as it is, and the server decides.
            if let found = stored, !found.response.holdsIfRange(ifRange) { range = nil }
        }
        let exchange = CacheExchange(
            cache: cache, request: request, primary: primary, directives: directives,
            ttl: cache.configuration.ttl(for: request), range: range,
            mayStore: !directives.noStore && request.options.cacheStoresResponse, context: context, next: next)
        if let found = stored {
            // A stored part answers only the ranges it holds; a stored 200 answers ranges it can slice.
            let answers = range.map { found.response.slice(for: $0) != nil } ?? (found.response.status != 206)
            if !answers { stored = nil }
        }
        let now = cache.now()
        if directives.onlyIfCached, policy != .cacheOnly {
            // RFC 9111 §5.2.1.7: a stored response consistent with the request's constraints, or 504.
            guard let stored else { return Self.gatewayTimeout(context) }
            switch stored.response.reuse(now: now, ttl: exchange.ttl, request: directives) {
            case .fresh: return exchange.deliver(stored.response, source: .cache, now: now)
            case .staleAccepted, .staleWhileRevalidate: return exchange.deliver(stored.response, source: .stale, now: now)
            case .validate: return Self.gatewayTimeout(context)
            }
        }
        switch policy {
        case .cacheOnly:
            let asksNetwork = request.options.cacheMissAsksNetwork
            guard let stored else {
                if asksNetwork { return try await exchange.fetch(stored: nil) }
                throw SwitchyardError.cacheMiss("\(head.method) \(head.path ?? "/")")
            }
            let fresh = stored.response.isFresh(now: now, ttl: exchange.ttl, request: directives)
            guard fresh || !stored.response.forbidsStaleUse else {
                if asksNetwork { return try await exchange.fetch(stored: stored) }
                throw SwitchyardError.cacheMiss(
                    "\(head.method) \(head.path ?? "/") (stored, but it must be revalidated)")
            }
            return exchange.deliver(stored.response, source: fresh ? .cache : .stale, now: now)
        case .standard:
            if let stored {
                switch stored.response.reuse(now: now, ttl: exchange.ttl, request: directives) {
                case .fresh:
                    return exchange.deliver(stored.response, source: .cache, now: now)
                case .staleAccepted:
                    return exchange.deliver(stored.response, source: .stale, now: now)
                case .staleWhileRevalidate where head.method == .get && range == nil && exchange.mayStore:
                    exchange.revalidateInBackground(stored)
                    return exchange.deliver(stored.response, source: .stale, now: now)
                case .staleWhileRevalidate, .validate:
                    break
                }
            }
            return try await exchange.fetch(stored: stored)
        case .network:
            return try await exchange.fetch(stored: stored)
        case .staleIfError:
            guard let stored, !stored.response.forbidsStaleUse else { return try await exchange.fetch(stored: stored) }
            let timeout = cache.configuration.networkTimeout
            do {
                let response = try await exchange.fetch(stored: stored, timeout: timeout)
                guard Self.errorStatuses.contains(response.head.status.code) else { return response }
                await response.body?.discard()
                return exchange.fallBack(to: stored.response)
            } catch let error as SwitchyardError where Self.isNetworkFailure(error) {
                return exchange.fallBack(to: stored.response)
            }
        }
    }

    /// The answer to an `only-if-cached` request that nothing stored can satisfy (RFC 9111
    /// §5.2.1.7): `504 Gateway Timeout`, made by the cache without the network.
    private static func gatewayTimeout(_ context: ExchangeContext) -> Response {
        context.provenance = ResponseProvenance(source: .cache)
        return Response(status: .gatewayTimeout, headerFields: [.contentLength: "0"])
    }
}
