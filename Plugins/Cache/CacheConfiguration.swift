public import Foundation
public import HTTPTypes
public import SwitchyardCore

/// How an ``HTTPCache`` behaves: the default policy, the largest entry, the app's freshness
/// lifetimes for endpoints whose responses carry no cache headers, the network timeout of
/// ``CachePolicy/staleIfError``, and a hook that edits what is stored (``willStore``).
///
/// ```swift
/// var configuration = CacheConfiguration()
/// configuration.ttlRules = [CacheTTLRule(scope: RequestScope(pathPrefixes: ["/v1/catalog"]), ttl: .seconds(600))]
/// configuration.networkTimeout = .seconds(3)
/// ```
public struct CacheConfiguration: Sendable {
    /// The default largest body stored: 4 MiB.
    public static let defaultMaxEntryBytes = 4 << 20

    /// The policy of requests that set none (default ``CachePolicy/standard``).
    public var defaultPolicy: CachePolicy = .standard
    /// Bodies larger than this pass through uncached (known from `Content-Length` before the body,
    /// or found while it streams, in which case the entry is abandoned).
    public var maxEntryBytes: Int = CacheConfiguration.defaultMaxEntryBytes
    /// Freshness lifetimes the app sets per endpoint, overriding the response's own; the first rule
    /// whose scope matches wins. A response to a matching request is stored even without cache
    /// headers (never with `no-store`).
    public var ttlRules: [CacheTTLRule] = []
    /// How long a ``CachePolicy/staleIfError`` request that has a stored response waits for the
    /// network's response head before it serves the stored response (default `nil`: no wait of the
    /// cache's own).
    ///
    /// Without it the network still counts as failed when a transport timeout ends the attempt
    /// (an attempt's timeout, the idle timeout) or when the exchange's deadline
    /// (`RequestOptions.timeout`) passes: the stored response is then the exchange's answer. Set it
    /// to show stored data sooner than the request's own timeout would, e.g. on a screen that
    /// should not wait long for a slow origin; requests without a stored response wait as long as
    /// the request allows.
    public var networkTimeout: Duration?
    /// The wall clock used for ages and freshness (replace it in tests).
    public var now: @Sendable () -> Date = { Date() }
    /// Edits the header fields of a response before they are stored: removes what must not reach
    /// the store (a `Set-Cookie`, a session or trace identifier), or rewrites a value. It runs for
    /// every write — a new response, the fields a `304 Not Modified` refreshes, partial responses
    /// combined — after the cache's own removals (hop-by-hop fields, the fields a
    /// `no-cache="…"` names), with the request that is being answered. It changes the stored copy
    /// only (and what is later served from it), never the network's response handed to the caller
    /// at the same time. `nil` (the default) costs nothing.
    ///
    /// ```swift
    /// configuration.willStore = { request, fields in
    ///     fields[.setCookie] = nil
    ///     fields[HTTPField.Name("X-Session-ID")!] = nil
    /// }
    /// ```
    ///
    /// The cache reads freshness and validators from the stored fields: removing `Cache-Control`,
    /// `Expires`, `ETag` or `Last-Modified` changes how long the entry is reused and whether it can
    /// be revalidated.
    public var willStore: (@Sendable (_ request: HTTPRequest, _ fields: inout HTTPFields) -> Void)?

    /// Creates the default configuration.
    public init() {}

    /// The app's freshness lifetime for `request`, if a rule matches.
    /// - Parameter request: The request.
    /// - Returns: The lifetime, or `nil`.
    func ttl(for request: Request) -> Duration? {
        for rule in ttlRules where rule.scope.matches(request) { return rule.ttl }
        return nil
    }
}

/// An app-level freshness lifetime for the requests of a scope, for APIs that send no cache headers.
public struct CacheTTLRule: Sendable, Hashable {
    /// The requests it applies to.
    public var scope: RequestScope
    /// How long their responses stay fresh.
    public var ttl: Duration

    /// Creates a rule.
    /// - Parameters:
    ///   - scope: The requests it applies to.
    ///   - ttl: How long their responses stay fresh.
    public init(scope: RequestScope, ttl: Duration) {
        self.scope = scope
        self.ttl = ttl
    }
}
