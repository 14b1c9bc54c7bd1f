#if Cache
import SwitchyardCore
public import SwitchyardCache

extension APIClient {
    /// The stored answer at once (if any), then the network's: one or two final call states, for
    /// screens that show something immediately and update it when fresh data comes.
    ///
    /// ```swift
    /// for await state in api.cacheThenNetwork(feed) {
    ///     if case .succeeded(let response) = state { show(response.value, from: response.info.source) }
    /// }
    /// ```
    ///
    /// The first state comes from a `CachePolicy.cacheOnly` call with
    /// `RequestOptions.cacheMissAsksNetwork`: a stored answer (however stale) is delivered at once
    /// and followed by a `CachePolicy.network` call, which stores what it gets and may be `failed`
    /// while the first was a value: the screen keeps showing it. On a miss the first call asks the
    /// network itself and its state is the only one: an empty cache is not a failure (no `failed`
    /// event, no pop-up), and the network is asked once. A first call that fails on the network
    /// (a connection, TLS, timeout, transport or protocol failure, or a `500`, `502`, `503` or `504`)
    /// is the only state too; any other failure of it (a stored answer that no longer decodes) is
    /// left for the network call to mend. Cancelling the iterating task cancels the calls.
    /// - Parameters:
    ///   - endpoint: A `GET` endpoint (its cache policy is replaced).
    ///   - userInfo: The caller's labels, carried into events and the results.
    /// - Returns: The states, cache first.
    public func cacheThenNetwork<Value: Sendable>(
        _ endpoint: Endpoint<Value>, userInfo: [String: String] = [:]
    ) -> AsyncStream<CallState<Value>> {
        AsyncStream { continuation in
            let task = Task {
                let stored = await call(endpoint.options(Self.interimCacheOptions), userInfo: userInfo).result()
                switch stored {
                case .succeeded(let response):
                    continuation.yield(stored)
                    if !response.info.source.isFromTheStore { return continuation.finish() }
                case .noData(let info):
                    continuation.yield(stored)
                    if !info.source.isFromTheStore { return continuation.finish() }
                case .failed(let error) where CacheInterceptor.isNetworkFailure(error):
                    continuation.yield(stored)
                    return continuation.finish()
                case .cancelled: return continuation.finish()
                default: break  // a stored answer that did not read: the network's answer follows
                }
                continuation.yield(await call(endpoint.options { $0.cachePolicy = .network }, userInfo: userInfo).result())
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The options of the first, quick call of cache-then-network: the stored answer, or on a
    /// miss the network's.
    @Sendable static func interimCacheOptions(_ options: inout RequestOptions) {
        options.cachePolicy = .cacheOnly
        options.cacheMissAsksNetwork = true
    }
}

extension ResponseSource {
    /// The source of a response with this provenance.
    /// - Parameter source: The exchange's provenance source.
    public init(_ source: ResponseProvenance.Source) {
        switch source {
        case .network: self = .network
        case .cache: self = .cache
        case .revalidated: self = .revalidated
        case .stale: self = .stale
        }
    }
}

extension ResponseSource {
    /// Whether an answer with this source came from the store without the network (`cache` or `stale`).
    var isFromTheStore: Bool { self == .cache || self == .stale }
}

extension EndpointPageSource {
    /// A copy that answers each page from the cache first, then from the network: a ``PageLoader``
    /// shows a stored first page (or refresh) at once, marked `ResponseSource.cache` or `.stale` in
    /// ``PageLoadResult/source``, and replaces it with the network's when that arrives. When the
    /// network fails, the list keeps the stored page and the state is `failed` with its items. A
    /// page that is not stored is asked from the network once, by the first call, and an empty
    /// cache is not a failure (no `failed` event, no pop-up).
    ///
    /// ```swift
    /// let source = EndpointPageSource<Book>(api: api, path: "/books", layout: layout).cacheThenNetwork()
    /// ```
    /// - Returns: The source.
    public func cacheThenNetwork() -> Self {
        var source = EndpointPageSource(api: api, endpoint: endpoint.options { $0.cachePolicy = .network }, layout: layout)
        source.interimOptions = APIClient.interimCacheOptions
        return source
    }
}
#endif
