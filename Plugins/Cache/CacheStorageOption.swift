public import Switchyard

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
