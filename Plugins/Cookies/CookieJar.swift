public import Foundation
public import HTTPTypes
import SwitchyardCore
import Synchronization

/// Cookies as RFC 6265bis's storage model keeps them (§5.7) and sends them (§5.8.3), over a
/// ``CookieStore``, in partitions.
///
/// ```swift
/// let jar = CookieJar(store: DiskCookieStore(url: cookiesFile))
/// configuration.plugins.append(.cookies(jar))
/// jar.partition = user.id          // after sign-in: this user's cookies
/// try jar.removeAll(partition: user.id)   // at sign-out
/// ```
///
/// What it refuses, each as the RFC says: a field with control characters; a `Domain` the request's
/// host is not within; a `Domain` that is a public suffix (`co.uk`, `github.io`), unless it is the
/// host itself; `Secure` from an insecure origin, and a cookie from an insecure origin that would
/// replace a secure one; `__Secure-` and `__Host-` cookies that break their prefix's rules. Stored
/// cookies are bounded per domain and in total; the oldest go first.
public final class CookieJar: Sendable {
    /// How many cookies a jar keeps.
    public struct Limits: Sendable, Hashable {
        /// Per domain (default 50, the RFC's minimum).
        public var perDomain: Int
        /// In each partition (default 3,000, the RFC's minimum).
        public var total: Int

        /// Creates limits.
        /// - Parameters:
        ///   - perDomain: Cookies per domain.
        ///   - total: Cookies per partition.
        public init(perDomain: Int = 50, total: Int = 3_000) {
            self.perDomain = perDomain
            self.total = total
        }
    }

    /// Where the cookies are.
    public let store: any CookieStore
    /// The list that decides which domains are public suffixes.
    public let publicSuffixes: PublicSuffixList
    /// The bounds on stored cookies.
    public let limits: Limits
    private let currentPartition = Mutex("")

    /// The system's Public Suffix List, read once; the top-level-only list when the system has none.
    public static let systemPublicSuffixes: PublicSuffixList = PublicSuffixList.system() ?? .topLevelOnly

    /// Creates a jar.
    /// - Parameters:
    ///   - store: Where cookies are kept (default: in memory).
    ///   - publicSuffixes: The Public Suffix List (default: the system's, ``systemPublicSuffixes``).
    ///   - limits: The bounds on stored cookies.
    public init(store: any CookieStore = MemoryCookieStore(), publicSuffixes: PublicSuffixList? = nil, limits: Limits = Limits()) {
        self.store = store
        self.publicSuffixes = publicSuffixes ?? Self.systemPublicSuffixes
        self.limits = limits
    }

    /// The partition requests use now (`""`, the shared one, until set), e.g. the signed-in user.
    public var partition: String {
        get { currentPartition.withLock { $0 } }
        set { currentPartition.withLock { $0 = newValue } }
    }

    // MARK: - Sending

    /// The cookies to send with `request`, in the RFC's order: longer paths first, then earlier
    /// creation.
    /// - Parameters:
    ///   - request: The request head (scheme, authority and path are used).
    ///   - now: The time expiry is judged at.
    /// - Returns: The matching cookies.
    /// - Throws: The store's read error.
    public func cookies(for request: HTTPRequest, now: Date = Date()) throws -> [Cookie] {
        let target = Target(request)
        return try store.cookies(in: partition)
            .filter { cookie in
                !cookie.isExpired(at: now) && (!cookie.isSecure || target.isSecure)
                    && (cookie.isHostOnly ? target.host == cookie.domain : CookieDomain.matches(host: target.host, domain: cookie.domain))
                    && CookieDomain.pathMatches(target.path, cookiePath: cookie.path)
            }
            .sorted { $0.path.count != $1.path.count ? $0.path.count > $1.path.count : $0.created < $1.created }
    }

    /// The `Cookie` field value for `request`, or `nil` when no cookie matches.
    /// - Parameters:
    ///   - request: The request head.
    ///   - now: The time expiry is judged at.
    /// - Returns: `a=1; b=2`.
    /// - Throws: The store's read error.
    public func cookieField(for request: HTTPRequest, now: Date = Date()) throws -> String? {
        let cookies = try cookies(for: request, now: now)
        return cookies.isEmpty ? nil : cookies.map(\.pair).joined(separator: "; ")
    }

    // MARK: - Receiving

    /// Stores the cookies of the `Set-Cookie` fields of a response to `request`.
    /// - Parameters:
    ///   - fields: The response's fields.
    ///   - request: The request the response answers (its URL decides domain, path and security).
    ///   - now: The time expiry is computed from.
    /// - Returns: The cookies stored (refused ones are left out).
    /// - Throws: The store's write error.
    @discardableResult
    public func store(_ fields: HTTPFields, from request: HTTPRequest, now: Date = Date()) throws -> [Cookie] {
        let values = fields[values: .setCookie]
        guard !values.isEmpty else { return [] }
        let target = Target(request)
        let cookies = values.compactMap { SetCookie($0).flatMap { cookie(from: $0, target: target, now: now) } }
        guard !cookies.isEmpty else { return [] }
        var stored: [Cookie] = []
        try store.update(partition) { existing in
            for cookie in cookies where admit(cookie, into: &existing, secureOrigin: target.isSecure, now: now) {
                stored.append(cookie)
            }
            evict(&existing, now: now)
        }
        return stored
    }

    /// Adds or replaces a cookie made by the app (no origin checks).
    /// - Parameter cookie: The cookie.
    /// - Throws: The store's write error.
    public func insert(_ cookie: Cookie) throws {
        let now = Date()
        try store.update(partition) { existing in
            _ = admit(cookie, into: &existing, secureOrigin: true, now: now)
            evict(&existing, now: now)
        }
    }

    /// Every cookie of `partition` (default: the current one), expired ones left out.
    /// - Parameter partition: The partition.
    /// - Returns: Its cookies, in creation order.
    /// - Throws: The store's read error.
    public func allCookies(in partition: String? = nil) throws -> [Cookie] {
        let now = Date()
        return try store.cookies(in: partition ?? self.partition).filter { !$0.isExpired(at: now) }
    }

    /// Removes the cookies of `partition` (e.g. a user's at sign-out).
    /// - Parameter partition: The partition.
    /// - Throws: The store's write error.
    public func removeAll(partition: String) throws {
        try store.removeAll(in: partition)
    }

    /// Removes every cookie of every partition.
    /// - Throws: The store's write error.
    public func removeAll() throws {
        try store.removeAll()
    }

    // MARK: - The storage model

    /// The cookie `field` makes for a response from `target`, or `nil` when it must be ignored.
    func cookie(from field: SetCookie, target: Target, now: Date) -> Cookie? {
        var cookie = Cookie(name: field.name, value: field.value, domain: target.host, created: now)
        if let maxAge = field.maxAge {
            cookie.expires = maxAge <= 0 ? .distantPast : now.addingTimeInterval(TimeInterval(min(maxAge, Self.longestLife)))
        } else if let expires = field.expires {
            cookie.expires = min(expires, now.addingTimeInterval(TimeInterval(Self.longestLife)))
        }
        // RFC 6265bis §5.7: a non-empty Domain the request host domain-matches makes a domain cookie,
        // even when it names the host itself; a public suffix is accepted only from that very host,
        // and then as host-only.
        if let domain = field.domain {
            if publicSuffixes.isPublicSuffix(domain) {
                guard domain == target.host else { return nil }
            } else {
                guard CookieDomain.matches(host: target.host, domain: domain) else { return nil }
                cookie.domain = domain
                cookie.isHostOnly = false
            }
        }
        cookie.path = field.path ?? CookieDomain.defaultPath(of: target.path)
        cookie.isSecure = field.isSecure
        cookie.isHTTPOnly = field.isHTTPOnly
        cookie.sameSite = field.sameSite
        if cookie.isSecure, !target.isSecure { return nil }
        guard Self.honoursPrefix(cookie, secureOrigin: target.isSecure) else { return nil }
        return cookie
    }

    /// RFC 6265bis caps a cookie's life at 400 days.
    static let longestLife: Int64 = 400 * 86_400

    /// `__Secure-` needs `Secure` from a secure origin; `__Host-` also needs a host-only cookie with
    /// path `/`. A nameless cookie may not look like either.
    static func honoursPrefix(_ cookie: Cookie, secureOrigin: Bool) -> Bool {
        let text = (cookie.name.isEmpty ? cookie.value : cookie.name).lowercased()
        if cookie.name.isEmpty, text.hasPrefix("__secure-") || text.hasPrefix("__host-") { return false }
        if text.hasPrefix("__secure-") { return cookie.isSecure && secureOrigin }
        if text.hasPrefix("__host-") { return cookie.isSecure && secureOrigin && cookie.isHostOnly && cookie.path == "/" }
        return true
    }

    /// Puts `cookie` into `existing` as §5.7's last steps say; `false` when it was refused or only
    /// removed an older cookie (an expiry in the past).
    private func admit(_ cookie: Cookie, into existing: inout [Cookie], secureOrigin: Bool, now: Date) -> Bool {
        // An insecure origin may not shadow a secure cookie of the same name.
        if !cookie.isSecure, !secureOrigin,
            existing.contains(where: { old in
                old.isSecure && old.name == cookie.name
                    && (CookieDomain.matches(host: old.domain, domain: cookie.domain)
                        || CookieDomain.matches(host: cookie.domain, domain: old.domain))
                    && CookieDomain.pathMatches(Substring(cookie.path), cookiePath: old.path)
            })
        {
            return false
        }
        var cookie = cookie
        if let index = existing.firstIndex(where: { $0.hasSameIdentity(as: cookie) }) {
            cookie.created = existing[index].created
            existing.remove(at: index)
        }
        guard !cookie.isExpired(at: now) else { return false }
        existing.append(cookie)
        return true
    }

    /// Drops expired cookies, then the oldest of any domain over its limit, then the oldest overall.
    private func evict(_ cookies: inout [Cookie], now: Date) {
        cookies.removeAll { $0.isExpired(at: now) }
        cookies.sort { $0.created < $1.created }
        var perDomain: [String: Int] = [:]
        for cookie in cookies { perDomain[cookie.domain, default: 0] += 1 }
        if perDomain.values.contains(where: { $0 > limits.perDomain }) {
            var keptOfDomain: [String: Int] = [:]
            // Walk newest first so the newest `perDomain` cookies of each domain stay.
            var kept: [Cookie] = []
            for cookie in cookies.reversed() {
                let count = keptOfDomain[cookie.domain, default: 0] + 1
                keptOfDomain[cookie.domain] = count
                if count <= limits.perDomain { kept.append(cookie) }
            }
            cookies = kept.reversed()
        }
        if cookies.count > limits.total { cookies.removeFirst(cookies.count - limits.total) }
    }

    /// The parts of a request URL the model uses.
    struct Target {
        let host: String
        let path: Substring
        let isSecure: Bool

        init(_ request: HTTPRequest) {
            let origin = RequestOrigin(request)
            host = origin.host.hasSuffix(".") ? String(origin.host.dropLast()) : origin.host
            path = CookieDomain.path(of: request.path)
            isSecure = CookieDomain.isSecure(scheme: origin.scheme, host: host)
        }
    }
}
