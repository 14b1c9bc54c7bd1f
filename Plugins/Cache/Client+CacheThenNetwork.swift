public import Switchyard

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
    /// The first element comes from a ``CachePolicy/cacheOnly`` exchange (skipped on a miss), the
    /// second from a ``CachePolicy/network`` exchange, which stores what it gets. When the network
    /// fails after a cached response was delivered, the sequence ends with that error; the caller
    /// keeps showing the cached one. A client without a ``CacheInterceptor`` yields only the network's.
    /// - Parameter request: A `GET` request (its ``SwitchyardCore/RequestOptions/cachePolicy`` is replaced).
    /// - Returns: The responses, cache first.
    public func cacheThenNetwork(_ request: Request) -> AsyncThrowingStream<BufferedResponse, any Error> {
        let hasCache = chain.contains { $0.name == String(describing: CacheInterceptor.self) }
        return AsyncThrowingStream(BufferedResponse.self) { continuation in
            let task = Task {
                var cached = request
                cached.options.cachePolicy = .cacheOnly
                do throws(SwitchyardError) {
                    if hasCache { continuation.yield(try await send(cached)) }
                } catch  where error.kind == .cacheMiss {
                    // Nothing stored: only the network's answer follows.
                } catch {
                    // A cache-only exchange fails without the network only when the chain itself fails.
                    if error.kind == .cancelled { return continuation.finish(throwing: error) }
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
