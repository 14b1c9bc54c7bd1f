public import Foundation

/// One stored cookie: the fields of the storage model of RFC 6265bis (§5.7).
///
/// A jar makes cookies from `Set-Cookie` fields (``CookieJar/store(_:from:now:)``); an app makes one by
/// hand to seed a jar (``CookieJar/insert(_:)``).
public struct Cookie: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What a server asked for with `SameSite` (recorded; a jar that is not a browser sends a cookie
    /// whatever its value, since it has no notion of the site that made the request).
    public enum SameSite: String, Sendable, Hashable, Codable {
        /// `SameSite=Strict`.
        case strict
        /// `SameSite=Lax`.
        case lax
        /// `SameSite=None`.
        case none
        /// Absent or not one of the three values.
        case `default`
    }

    /// The name (may be empty: `Set-Cookie: value` makes a cookie with an empty name).
    public var name: String
    /// The value.
    public var value: String
    /// The host (``isHostOnly``) or the domain it is sent to, lower-cased, without a leading dot.
    public var domain: String
    /// Whether only ``domain`` itself receives the cookie (no `Domain` attribute was given).
    public var isHostOnly: Bool
    /// The path it is sent to and below.
    public var path: String
    /// When it expires; `nil` for a session cookie (kept until the jar is dropped or cleared).
    public var expires: Date?
    /// Whether it is sent over secure connections only (`Secure`).
    public var isSecure: Bool
    /// Whether a server marked it `HttpOnly` (kept in files in curl's `#HttpOnly_` form).
    public var isHTTPOnly: Bool
    /// The `SameSite` value.
    public var sameSite: SameSite
    /// When it was first stored; earlier cookies come first among cookies of equal path length.
    public var created: Date

    /// Creates a cookie.
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value.
    ///   - domain: The host or domain (a leading dot is removed; lower-cased).
    ///   - isHostOnly: Whether only `domain` itself receives it (default `true`).
    ///   - path: The path (default `/`).
    ///   - expires: The expiry; `nil` for a session cookie.
    ///   - isSecure: Secure connections only.
    ///   - isHTTPOnly: `HttpOnly`.
    ///   - sameSite: The `SameSite` value.
    ///   - created: The creation time (default now).
    public init(
        name: String, value: String, domain: String, isHostOnly: Bool = true, path: String = "/",
        expires: Date? = nil, isSecure: Bool = false, isHTTPOnly: Bool = false, sameSite: SameSite = .default,
        created: Date = Date()
    ) {
        self.name = name
        self.value = value
        self.domain = CookieDomain.canonical(domain)
        self.isHostOnly = isHostOnly
        self.path = path
        self.expires = expires
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.sameSite = sameSite
        self.created = created
    }

    /// Whether it has expired at `now`.
    /// - Parameter now: The time to compare with.
    /// - Returns: `true` when ``expires`` is at or before `now`.
    public func isExpired(at now: Date) -> Bool {
        guard let expires else { return false }
        return expires <= now
    }

    /// Whether this and `other` are the same cookie for storage: same name, domain, host-only flag
    /// and path (a new one replaces the old one, keeping its creation time).
    /// - Parameter other: Another cookie.
    /// - Returns: Whether one replaces the other.
    public func hasSameIdentity(as other: Cookie) -> Bool {
        name == other.name && domain == other.domain && isHostOnly == other.isHostOnly && path == other.path
    }

    /// `name=value` as the `Cookie` field carries it (just the value when the name is empty).
    public var pair: String { name.isEmpty ? value : "\(name)=\(value)" }

    /// `name=value; domain; path` without the value's characters beyond the first four (values are
    /// often session secrets).
    public var description: String {
        let shown = value.count > 4 ? "\(value.prefix(4))…" : value
        return "\(name)=\(shown) (\(isHostOnly ? "" : ".")\(domain)\(path)\(isSecure ? ", secure" : ""))"
    }
}
