#if Cache
import Switchyard
import SwitchyardCache

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
    /// The first state comes from a `CachePolicy.cacheOnly` call, delivered only when it
    /// succeeded or had no data (a miss delivers nothing); the second from a `CachePolicy.network`
    /// call, which stores what it gets, and may be `failed` while the first was a value: the
    /// screen keeps showing it. Cancelling the iterating task cancels the calls.
    /// - Parameters:
    ///   - endpoint: A `GET` endpoint (its cache policy is replaced).
    ///   - userInfo: The caller's labels, carried into events and the results.
    /// - Returns: The states, cache first.
    public func cacheThenNetwork<Value: Sendable>(
        _ endpoint: Endpoint<Value>, userInfo: [String: String] = [:]
    ) -> AsyncStream<CallState<Value>> {
        AsyncStream { continuation in
            let task = Task {
                let stored = await call(endpoint.options { $0.cachePolicy = .cacheOnly }, userInfo: userInfo).result()
                switch stored {
                case .succeeded, .noData: continuation.yield(stored)
                case .cancelled: return continuation.finish()
                default: break  // a miss: only the network's answer follows
                }
                continuation.yield(await call(endpoint.options { $0.cachePolicy = .network }, userInfo: userInfo).result())
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

extension EndpointPageSource {
    /// A copy that answers each page from the cache first, then from the network: a ``PageLoader``
    /// shows a stored first page (or refresh) at once, marked `ResponseSource.cache` or `.stale` in
    /// ``PageLoadResult/source``, and replaces it with the network's when that arrives. When the
    /// network fails, the list keeps the stored page and the state is `failed` with its items.
    ///
    /// ```swift
    /// let source = EndpointPageSource<Book>(api: api, path: "/books", layout: layout).cacheThenNetwork()
    /// ```
    /// - Returns: The source.
    public func cacheThenNetwork() -> Self {
        var source = EndpointPageSource(api: api, endpoint: endpoint.options { $0.cachePolicy = .network }, layout: layout)
        source.interimOptions = { $0.cachePolicy = .cacheOnly }
        return source
    }
}
#endif
