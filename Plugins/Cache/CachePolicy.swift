public import Switchyard

/// How one request uses the cache. Set it per request (``SwitchyardCore/RequestOptions/cachePolicy``)
/// or for every request (``CacheConfiguration/defaultPolicy``).
///
/// ```swift
/// var request = try Request(url: "https://api.example.com/feed")
/// request.options.cachePolicy = .staleIfError   // an offline-capable screen
/// ```
public enum CachePolicy: String, Sendable, Hashable, CaseIterable {
    /// HTTP semantics (RFC 9111): a fresh stored response is served without the network; a stale
    /// one is revalidated (`If-None-Match` / `If-Modified-Since`); the answer is stored when allowed.
    case standard = "standard"
    /// Network first (revalidating when a response is stored); when the network fails — a connection
    /// error, a timeout (``CacheConfiguration/networkTimeout``) or a 5xx — the stored response is
    /// served however stale, marked `ResponseProvenance.Source.stale` (or `cache` while
    /// it is still fresh). A response the
    /// origin marked `must-revalidate` or `no-cache` is never served stale; the failure is then thrown.
    case staleIfError = "stale-if-error"
    /// Always asks the network (conditionally when a response with validators is stored) and stores
    /// the answer: the second half of ``SwitchyardCore/Client/cacheThenNetwork(_:)``.
    case network = "network"
    /// Offline: the stored response however stale (marked `cache` when fresh, `stale` when not), and
    /// nothing is sent; without one the request fails with ``SwitchyardCore/SwitchyardError/Kind/cacheMiss``.
    case cacheOnly = "cache-only"
}

extension RequestOptions {
    /// The `userInfo` key under which ``cachePolicy`` travels (visible in events as `cache.policy`).
    public static let cachePolicyKey = "cache.policy"

    /// This request's cache policy, or `nil` for the cache's ``CacheConfiguration/defaultPolicy``.
    /// Stored in `userInfo` under ``cachePolicyKey``, so it shows in the request's events.
    public var cachePolicy: CachePolicy? {
        get { userInfo[Self.cachePolicyKey].flatMap(CachePolicy.init(rawValue:)) }
        set { userInfo[Self.cachePolicyKey] = newValue?.rawValue }
    }
}
