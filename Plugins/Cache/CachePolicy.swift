public import SwitchyardCore

/// How one request uses the cache. Set it per request (``SwitchyardCore/RequestOptions/cachePolicy``)
/// or for every request (``CacheConfiguration/defaultPolicy``).
///
/// ```swift
/// var request = try Request(url: "https://api.example.com/feed")
/// request.options.cachePolicy = .staleIfError   // an offline-capable screen
/// ```
public enum CachePolicy: String, Sendable, Hashable, CaseIterable {
    /// HTTP semantics (RFC 9111), the cache's default: a fresh stored response is served without
    /// the network; a stale one is revalidated (`If-None-Match` / `If-Modified-Since`); the answer is
    /// stored when allowed. A failure of the network is the request's failure: for a fallback to the
    /// stored response, use ``staleIfError``.
    case standard = "standard"
    /// Network first, the stored response when the network fails: every request asks the network
    /// (conditionally when a response with validators is stored), even while the stored response is
    /// still fresh, so a screen shows the newest data whenever the origin can give it. When the
    /// network fails, the stored response is served however stale, marked
    /// `ResponseProvenance.Source.stale` (or `cache` while it is still fresh).
    ///
    /// The network has failed when the rest of the chain throws one of
    /// ``CacheInterceptor/networkFailureKinds`` (a connection failure, TLS, a malformed response, a
    /// timeout: an attempt's, the idle timeout, ``CacheConfiguration/networkTimeout``, or the
    /// exchange's deadline coming near), or answers `500`, `502`, `503` or `504`
    /// (``CacheInterceptor/errorStatuses``, RFC 5861 §4) — as a response, or as the `httpStatus`
    /// error of the standard status validation. The cache sits outside retries, so the fallback
    /// comes after the retry link gave up. When the deadline (`RequestOptions.timeout`) ends the
    /// network's attempt, the stored response is the answer; ``CacheConfiguration/networkTimeout``
    /// serves it sooner. A response the origin marked `must-revalidate` or `no-cache` is never served
    /// stale; the failure is then thrown, and so is any other failure (a `404`, a cancellation).
    case staleIfError = "stale-if-error"
    /// Always asks the network (conditionally when a response with validators is stored) and stores
    /// the answer; a failure is the request's: the second half of
    /// ``SwitchyardCore/Client/cacheThenNetwork(_:)``.
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
