public import HTTPTypes

/// The origin of a request (RFC 6454): scheme, host and port, compared case-insensitively,
/// with the scheme's default port filled in: what same-origin rules (credentials dropped when a
/// request moves to another origin), per-host state and metrics' `server.address` compare.
///
/// ```swift
/// RequestOrigin(request.head) == RequestOrigin(next.head)   // same scheme, host and port
/// ```
public struct RequestOrigin: Hashable, Sendable {
    /// The scheme, lower-cased.
    public let scheme: String
    /// The host, lower-cased (an IPv6 literal keeps its brackets).
    public let host: String
    /// The port, or the scheme's default (80, 443); `nil` when neither is known.
    public let port: Int?

    /// The origin of `head`, from its scheme and authority (user information is ignored).
    /// - Parameter head: The request head.
    public init(_ head: HTTPRequest) {
        scheme = (head.scheme ?? "").lowercased()
        let authority = Self.hostAndPort(of: head.authority)
        let hostPart: Substring
        let portPart: Substring?
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            hostPart = authority[...close]
            let rest = authority[authority.index(after: close)...]
            portPart = rest.hasPrefix(":") ? rest.dropFirst() : nil
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        } else {
            hostPart = authority
            portPart = nil
        }
        host = hostPart.lowercased()
        port = portPart.flatMap { Int($0) } ?? Self.defaultPort(scheme)
    }

    private static func defaultPort(_ scheme: String) -> Int? {
        switch scheme {
        case "http": 80
        case "https": 443
        default: nil
        }
    }
}

extension HTTPRequest {
    /// The URL without user information and with any query replaced by `?…`, safe for error
    /// messages and events: `https://api.example.com/v1/items?…`.
    public var redactedLocation: String {
        let path = self.path ?? "/"
        let withoutQuery = path.firstIndex(of: "?").map { path[..<$0] + "?…" } ?? path
        return "\(scheme ?? "")://\(RequestOrigin.hostAndPort(of: authority))\(withoutQuery)"
    }
}

extension RequestOrigin {
    /// The authority without user information (`user:secret@host:8080` → `host:8080`).
    /// - Parameter authority: A request's authority.
    /// - Returns: Host and port as they appear in the authority.
    public static func hostAndPort(of authority: String?) -> Substring {
        let authority = Substring(authority ?? "")
        guard let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) else { return authority }
        return authority[authority.index(after: at)...]
    }
}
