public import HTTPTypes

/// Which requests a rule, plugin or message mapping applies to: by host, path prefix and tag.
///
/// Every non-empty criterion must match; an empty criterion matches everything, so
/// `RequestScope.all` matches every request.
///
/// ```swift
/// let payments = RequestScope(hosts: ["api.example.com"], pathPrefixes: ["/payments"])
/// payments.matches(try Request(url: "https://api.example.com/payments/42"))   // true
/// payments.matches(try Request(url: "https://api.example.com/users/42"))      // false
/// ```
///
/// - Hosts compare case-insensitively, without the port. A host written `*.example.com` matches
///   every subdomain of `example.com` (not `example.com` itself).
/// - Path prefixes match whole segments: `/payments` matches `/payments` and `/payments/42`,
///   not `/paymentsX`. The query is ignored.
/// - Tags match when the request's ``RequestOptions/tags`` contain at least one of them.
public struct RequestScope: Sendable, Hashable, CustomStringConvertible {
    /// Host names (lower-cased), or `*.suffix` patterns; empty means any host.
    public let hosts: Set<String>
    /// Path prefixes, each starting with `/`; empty means any path.
    public let pathPrefixes: [String]
    /// Request tags, any one of which must be present; empty means any tags.
    public let tags: Set<String>

    /// The scope that matches every request.
    public static let all = RequestScope()

    /// Creates a scope.
    /// - Parameters:
    ///   - hosts: Host names or `*.suffix` patterns; empty for any host.
    ///   - pathPrefixes: Path prefixes starting with `/`; empty for any path.
    ///   - tags: Tags, one of which the request must carry; empty for any.
    public init(hosts: Set<String> = [], pathPrefixes: [String] = [], tags: Set<String> = []) {
        self.hosts = Set(hosts.map { $0.lowercased() })
        self.pathPrefixes = pathPrefixes.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        self.tags = tags
    }

    /// Whether `request` is in this scope.
    /// - Parameter request: The request.
    /// - Returns: `true` when every non-empty criterion matches.
    public func matches(_ request: Request) -> Bool {
        matches(request.head, tags: request.options.tags)
    }

    /// Whether a request with this head and these tags is in this scope.
    /// - Parameters:
    ///   - head: The request head (its authority and path are compared).
    ///   - tags: The request's tags.
    /// - Returns: `true` when every non-empty criterion matches.
    public func matches(_ head: HTTPRequest, tags: Set<String>) -> Bool {
        if !self.tags.isEmpty, self.tags.isDisjoint(with: tags) { return false }
        if !hosts.isEmpty {
            guard let host = Self.host(of: head.authority), matchesHost(host) else { return false }
        }
        if !pathPrefixes.isEmpty {
            let path = Self.pathWithoutQuery(head.path ?? "/")
            guard pathPrefixes.contains(where: { Self.path(path, hasPrefix: $0) }) else { return false }
        }
        return true
    }

    /// A readable form, e.g. `hosts=api.example.com paths=/payments`, or `all`.
    public var description: String {
        var parts: [String] = []
        if !hosts.isEmpty { parts.append("hosts=" + hosts.sorted().joined(separator: ",")) }
        if !pathPrefixes.isEmpty { parts.append("paths=" + pathPrefixes.joined(separator: ",")) }
        if !tags.isEmpty { parts.append("tags=" + tags.sorted().joined(separator: ",")) }
        return parts.isEmpty ? "all" : parts.joined(separator: " ")
    }

    private func matchesHost(_ host: Substring) -> Bool {
        // Lower-cased only when needed: the usual host is already lower-case ASCII.
        let host = host.utf8.contains { (65...90).contains($0) || $0 >= 128 } ? host.lowercased() : String(host)
        if hosts.contains(host) { return true }
        return hosts.contains { pattern in
            pattern.hasPrefix("*.") && host.hasSuffix(pattern.dropFirst(1)) && host.count > pattern.count - 1
        }
    }

    /// The host of an authority (`user@host:port`, `[::1]:8080`), without port or user info.
    static func host(of authority: String?) -> Substring? {
        // Searched as UTF-8 (the delimiters are ASCII): no grapheme breaking on the request path.
        guard var rest = authority.map({ Substring($0) }) else { return nil }
        if let at = rest.utf8.lastIndex(of: UInt8(ascii: "@")) { rest = rest[rest.utf8.index(after: at)...] }
        if rest.utf8.first == UInt8(ascii: "[") {
            guard let close = rest.utf8.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            return rest[...close]
        }
        if let colon = rest.utf8.lastIndex(of: UInt8(ascii: ":")) { rest = rest[..<colon] }
        return rest
    }

    private static func pathWithoutQuery(_ path: String) -> Substring {
        let end = path.firstIndex { $0 == "?" || $0 == "#" } ?? path.endIndex
        return path[..<end]
    }

    private static func path(_ path: Substring, hasPrefix prefix: String) -> Bool {
        guard path.hasPrefix(prefix) else { return false }
        if prefix == "/" || path.count == prefix.count { return true }
        return path[path.index(path.startIndex, offsetBy: prefix.count)] == "/"
    }
}
