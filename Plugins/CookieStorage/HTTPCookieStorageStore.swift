public import SwitchyardCookies
import Synchronization

#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// A `CookieStore` kept in Foundation's `HTTPCookieStorage`, so that a `CookieJar` and the app's
/// other Foundation users (URLSession tasks outside Switchyard, web views on Apple platforms) see
/// the same cookies.
///
/// ```swift
/// let jar = CookieJar(store: HTTPCookieStorageStore())   // HTTPCookieStorage.shared
/// ```
///
/// `HTTPCookieStorage` has no partitions: each partition is the storage `storage(partition)`
/// returns (by default `.shared` for all, so clearing one partition clears them all; give each
/// partition its own, e.g. `sharedCookieStorage(forGroupContainerIdentifier:)`, to keep them apart).
/// Foundation keeps no creation time; cookies this store did not write count as created before
/// every cookie it did. An update is atomic against other updates through this store, not against
/// other writers of the same storage.
public final class HTTPCookieStorageStore: CookieStore {
    private let storage: @Sendable (String) -> HTTPCookieStorage
    /// Creation times by cookie identity, which `HTTPCookie` does not carry; also the updates' lock.
    private let created = Mutex<[Identity: Date]>([:])

    /// Creates a store.
    /// - Parameter storage: The storage of a partition (default `HTTPCookieStorage.shared` for every partition).
    public init(storage: @escaping @Sendable (_ partition: String) -> HTTPCookieStorage = { _ in .shared }) {
        self.storage = storage
    }

    /// The cookies of `partition`'s storage, oldest first.
    /// - Parameter partition: The partition.
    /// - Returns: Its cookies.
    public func cookies(in partition: String) -> [Cookie] {
        created.withLock { read(partition, created: $0) }
    }

    /// Applies `change` and writes the difference back to the storage: removed cookies deleted,
    /// new and changed ones set.
    /// - Parameters:
    ///   - partition: The partition.
    ///   - change: The edit.
    public func update(_ partition: String, _ change: (inout [Cookie]) -> Void) {
        created.withLock { created in
            let before = read(partition, created: created)
            var after = before
            change(&after)
            let storage = storage(partition)
            let kept = Set(after.map(Identity.init))
            for cookie in before where !kept.contains(Identity(cookie)) {
                if let foundation = Self.foundationCookie(cookie) { storage.deleteCookie(foundation) }
                created[Identity(cookie)] = nil
            }
            for cookie in after where !before.contains(cookie) {
                if let foundation = Self.foundationCookie(cookie) { storage.setCookie(foundation) }
                created[Identity(cookie)] = cookie.created
            }
        }
    }

    /// Deletes every cookie of `partition`'s storage.
    /// - Parameter partition: The partition.
    public func removeAll(in partition: String) {
        created.withLock { _ in
            let storage = storage(partition)
            for cookie in storage.cookies ?? [] { storage.deleteCookie(cookie) }
        }
    }

    /// Deletes every cookie of the default partition's storage (`""`), and forgets every creation time.
    public func removeAll() {
        removeAll(in: "")
        created.withLock { $0.removeAll() }
    }

    private func read(_ partition: String, created: [Identity: Date]) -> [Cookie] {
        let cookies = (storage(partition).cookies ?? []).map { foundation in
            var cookie = Self.cookie(foundation)
            cookie.created = created[Identity(cookie)] ?? .distantPast
            return cookie
        }
        return cookies.sorted { $0.created < $1.created }
    }

    /// A cookie's identity in storage (RFC 6265bis §5.7: name, domain, host-only, path).
    private struct Identity: Hashable {
        var name: String
        var domain: String
        var isHostOnly: Bool
        var path: String

        init(_ cookie: Cookie) {
            (name, domain, isHostOnly, path) = (cookie.name, cookie.domain, cookie.isHostOnly, cookie.path)
        }
    }

    /// Foundation's form: a leading dot on the domain marks a domain cookie.
    static func foundationCookie(_ cookie: Cookie) -> HTTPCookie? {
        var properties: [HTTPCookiePropertyKey: Any] = [
            .name: cookie.name, .value: cookie.value, .path: cookie.path,
            .domain: cookie.isHostOnly ? cookie.domain : "." + cookie.domain
        ]
        if let expires = cookie.expires { properties[.expires] = expires }
        if cookie.isSecure { properties[.secure] = "TRUE" }
        if cookie.isHTTPOnly { properties[HTTPCookiePropertyKey("HttpOnly")] = "TRUE" }
        #if canImport(Darwin)
        switch cookie.sameSite {
        case .strict: properties[.sameSitePolicy] = HTTPCookieStringPolicy.sameSiteStrict.rawValue
        case .lax: properties[.sameSitePolicy] = HTTPCookieStringPolicy.sameSiteLax.rawValue
        case .none, .default: break
        }
        #endif
        return HTTPCookie(properties: properties)
    }

    /// Ours: a domain without a leading dot is host-only.
    static func cookie(_ foundation: HTTPCookie) -> Cookie {
        var sameSite = Cookie.SameSite.default
        #if canImport(Darwin)
        switch foundation.sameSitePolicy {
        case .sameSiteStrict?: sameSite = .strict
        case .sameSiteLax?: sameSite = .lax
        default: break
        }
        #endif
        return Cookie(
            name: foundation.name, value: foundation.value, domain: foundation.domain,
            isHostOnly: !foundation.domain.hasPrefix("."), path: foundation.path,
            expires: foundation.isSessionOnly ? nil : foundation.expiresDate, isSecure: foundation.isSecure,
            isHTTPOnly: foundation.isHTTPOnly, sameSite: sameSite, created: .distantPast)
    }
}
