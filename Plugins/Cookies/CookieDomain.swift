/// Host and path matching of RFC 6265bis (§5.1.3 domain matching, §5.1.4 paths).
enum CookieDomain {
    /// `domain` lower-cased without one leading dot.
    static func canonical(_ domain: some StringProtocol) -> String {
        let domain = Substring(domain)
        let trimmed = domain.hasPrefix(".") ? domain.dropFirst() : domain
        return trimmed.lowercased()
    }

    /// Whether `host` domain-matches `domain`: equal, or `host` ends with `.domain` and is a name,
    /// not an IP address.
    static func matches(host: String, domain: String) -> Bool {
        if host == domain { return true }
        guard host.count > domain.count, host.hasSuffix(domain) else { return false }
        let dot = host.index(host.endIndex, offsetBy: -domain.count - 1)
        return host[dot] == "." && !isIPAddress(host)
    }

    /// Whether `host` is an IPv4 or IPv6 literal.
    static func isIPAddress(_ host: String) -> Bool {
        if host.hasPrefix("[") || host.contains(":") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCIIDigit) }
    }

    /// Whether a request to `host` over `scheme` counts as secure for `Secure` cookies: HTTPS and WSS,
    /// and loopback hosts, which browsers treat as potentially trustworthy.
    static func isSecure(scheme: String, host: String) -> Bool {
        switch scheme {
        case "https", "wss": return true
        default: return host == "localhost" || host.hasSuffix(".localhost") || host.hasPrefix("127.") || host == "[::1]"
        }
    }

    /// The default path of a request path (§5.1.4): up to, not including, its last `/`, or `/`.
    static func defaultPath(of requestPath: Substring) -> String {
        guard requestPath.hasPrefix("/"), let last = requestPath.lastIndex(of: "/"), last != requestPath.startIndex else {
            return "/"
        }
        return String(requestPath[..<last])
    }

    /// Whether `requestPath` path-matches `cookiePath` (§5.1.4).
    static func pathMatches(_ requestPath: Substring, cookiePath: String) -> Bool {
        guard requestPath.hasPrefix(cookiePath) else { return false }
        if requestPath.count == cookiePath.count || cookiePath.hasSuffix("/") { return true }
        return requestPath[requestPath.index(requestPath.startIndex, offsetBy: cookiePath.count)] == "/"
    }

    /// The path of a request target without its query.
    static func path(of target: String?) -> Substring {
        let target = Substring(target ?? "/")
        let path = target.firstIndex(of: "?").map { target[..<$0] } ?? target
        return path.isEmpty ? "/" : path
    }
}

extension Character {
    /// `0`–`9`.
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
