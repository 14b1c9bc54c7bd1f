public import Foundation
public import Switchyard

/// How an ``HTTPCache`` behaves: the default policy, the largest entry, the app's freshness
/// lifetimes for endpoints whose responses carry no cache headers, and the network timeout of
/// ``CachePolicy/staleIfError``.
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
    /// How long a ``CachePolicy/staleIfError`` request waits for the network before it serves the
    /// stored response; `nil`: as long as the request's own timeout allows (a timeout of the
    /// exchange itself then fails the call, whatever is stored).
    public var networkTimeout: Duration?
    /// The wall clock used for ages and freshness (replace it in tests).
    public var now: @Sendable () -> Date = { Date() }

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
