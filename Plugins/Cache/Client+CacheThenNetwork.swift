public import SwitchyardCore

extension Client {
    /// The cached response at once (if any), then the network's: an asynchronous sequence of one or
    /// two responses, for screens that show something immediately and update it when fresh data comes.
    ///
    /// ```swift
    /// for try await response in client.cacheThenNetwork(request) {
    ///     show(response.body, from: response.context.provenance)   // cache (or stale), then network / revalidated
    /// }
    /// ```
    ///
    /// The first exchange is a ``CachePolicy/cacheOnly`` one with
    /// ``SwitchyardCore/RequestOptions/cacheMissAsksNetwork``: a stored response (however stale)
    /// is yielded at once and followed by a ``CachePolicy/network`` exchange, which stores what it
    /// gets. On a miss the first exchange asks the network itself, and its answer is the only
    /// element: an empty cache is not a failure, so it publishes no `failed` event and no pop-up,
    /// and the network is asked once. When the network fails after a cached response was
    /// delivered, the sequence ends with that error; the caller keeps showing the cached one. A
    /// client without a ``CacheInterceptor`` yields only the network's.
    /// - Parameter request: A `GET` request (its ``SwitchyardCore/RequestOptions/cachePolicy`` is replaced).
    /// - Returns: The responses, cache first.
    public func cacheThenNetwork(_ request: Request) -> AsyncThrowingStream<BufferedResponse, any Error> {
        let hasCache = chain.contains { $0.name == String(describing: CacheInterceptor.self) }
        return AsyncThrowingStream(BufferedResponse.self) { continuation in
            let task = Task {
                if hasCache {
                    var cached = request
                    cached.options.cachePolicy = .cacheOnly
                    cached.options.cacheMissAsksNetwork = true
                    do {
                        let first = try await send(cached)
                        continuation.yield(first)
                        // On a miss the network answered: that is the final answer.
                        guard first.context.provenance.source.isFromTheStore else { return continuation.finish() }
                    } catch {
                        // A miss went to the network and it failed, or the chain itself failed.
                        return continuation.finish(throwing: error)
                    }
                }
                var fresh = request
                fresh.options.cachePolicy = .network
                do {
                    continuation.yield(try await send(fresh))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

extension ResponseProvenance.Source {
    /// Whether a response with this source came from the store without the network (`cache` or
    /// `stale`), as opposed to the network's answer (`network`, `revalidated`).
    var isFromTheStore: Bool { self == .cache || self == .stale }
}
