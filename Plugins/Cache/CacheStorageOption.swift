public import SwitchyardCore

/// The per-request option that keeps a response out of the cache
/// (``SwitchyardCore/RequestOptions/cacheStoresResponse``).
public enum CacheStoresResponseKey: RequestOptionKey {
    /// `true`: the response is stored when RFC 9111 allows it.
    public static let defaultValue = true
}

extension RequestOptions {
    /// Whether the cache may store this request's response (default `true`). `false` acts like a
    /// request's `Cache-Control: no-store` without sending one: a usable stored response still
    /// answers the request, but neither the network's response nor a `304`'s refreshed header
    /// fields are stored, and no background revalidation starts for it. Unset, it costs nothing.
    ///
    /// ```swift
    /// var request = try Request(url: "https://api.example.com/me/statement")
    /// request.options.cacheStoresResponse = false   // never written to the cache (or its disk)
    /// ```
    public var cacheStoresResponse: Bool {
        get { self[CacheStoresResponseKey.self] }
        set { self[CacheStoresResponseKey.self] = newValue }
    }
}

/// The per-request option that sends a ``CachePolicy/cacheOnly`` request to the network on a miss
/// (``SwitchyardCore/RequestOptions/cacheMissAsksNetwork``).
public enum CacheMissAsksNetworkKey: RequestOptionKey {
    /// `false`: a cache-only miss fails with ``SwitchyardCore/SwitchyardError/Kind/cacheMiss``.
    public static let defaultValue = false
}

extension RequestOptions {
    /// Whether a ``CachePolicy/cacheOnly`` request that finds nothing usable in the cache is sent to
    /// the network, as a ``CachePolicy/network`` request would be (its answer stored when allowed),
    /// instead of failing with ``SwitchyardCore/SwitchyardError/Kind/cacheMiss`` (default `false`). A
    /// stored response that must be revalidated is then revalidated. The response's
    /// `ExchangeContext.provenance` tells which happened: `cache` or `stale` from the store,
    /// `network` or `revalidated` after the network. Other policies ignore it.
    ///
    /// ``SwitchyardCore/Client/cacheThenNetwork(_:)`` sets it for its first exchange, so that on an
    /// empty cache the first exchange is the network's and nothing fails: no `failed` event, no pop-up.
    ///
    /// ```swift
    /// var request = try Request(url: "https://api.example.com/feed")
    /// request.options.cachePolicy = .cacheOnly
    /// request.options.cacheMissAsksNetwork = true   // stored if any, else the network's
    /// ```
    public var cacheMissAsksNetwork: Bool {
        get { self[CacheMissAsksNetworkKey.self] }
        set { self[CacheMissAsksNetworkKey.self] = newValue }
    }
}
