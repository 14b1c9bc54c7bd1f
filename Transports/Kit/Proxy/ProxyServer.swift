public import SwitchyardCore

/// An HTTP proxy: where it listens and the credentials it wants, if any.
///
/// Write it as curl does, `[http://][user[:password]@]host[:port]` (port 1080 when absent, as curl
/// assumes; user and password percent-decoded). Only plain-HTTP proxies are supported: the
/// connection to the proxy is not encrypted (an `https://` request still is, end to end, through a
/// `CONNECT` tunnel).
///
/// ```swift
/// let proxy = try ProxyServer(url: "http://alice:s3cret@proxy.internal:3128")
/// print(proxy)   // http://alice:<redacted>@proxy.internal:3128
/// ```
public struct ProxyServer: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// What replaces a password wherever a proxy is described.
    public static let redactedPassword = "<redacted>"
    /// The port assumed when the URL has none (curl's default proxy port).
    public static let defaultPort = 1080

    /// The proxy's host name or IP address (an IPv6 address without brackets).
    public var host: String
    /// The proxy's port.
    public var port: Int
    /// The credentials sent in `Proxy-Authorization: Basic`, if the proxy needs them.
    public var credentials: ProxyCredentials?

    /// Creates a proxy description.
    /// - Parameters:
    ///   - host: Host name or IP address (IPv6 without brackets).
    ///   - port: The port.
    ///   - credentials: The credentials, if the proxy asks for them.
    public init(host: String, port: Int, credentials: ProxyCredentials? = nil) {
        self.host = host
        self.port = port
        self.credentials = credentials
    }

    /// Parses `[http://][user[:password]@]host[:port][/]`.
    /// - Parameter url: The proxy URL.
    /// - Throws: ``SwitchyardError/Kind/invalidRequest`` when it is not a plain-HTTP proxy URL (the
    ///   message never repeats the password).
    public init(url: String) throws(SwitchyardError) {
        var rest = Substring(url.trimmingASCIIWhitespace())
        if let separator = rest.firstRange(of: "://") {
            let scheme = rest[..<separator.lowerBound].lowercased()
            guard scheme == "http" else {
                throw .invalidRequest(
                    "The proxy URL has the scheme '\(scheme)'; only http:// proxies are supported"
                        + " (an https:// request still goes through them encrypted, in a CONNECT tunnel).")
            }
            rest = rest[separator.upperBound...]
        }
        if let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            rest = rest[..<slash]
        }
        var credentials: ProxyCredentials?
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
            let colon = userInfo.firstIndex(of: ":")
            let user = userInfo[..<(colon ?? userInfo.endIndex)]
            let password = colon.map { userInfo[userInfo.index(after: $0)...] } ?? ""
            credentials = ProxyCredentials(
                user: String(decoding: user.percentDecodedBytes, as: UTF8.self),
                password: String(decoding: password.percentDecodedBytes, as: UTF8.self))
        }
        var host = rest
        var port = Self.defaultPort
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") {
                guard let value = Int(after.dropFirst()) else { throw Self.badPort }
                port = value
            } else if !after.isEmpty {
                throw Self.badPort
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            guard let value = Int(rest[rest.index(after: colon)...]) else { throw Self.badPort }
            port = value
        }
        guard !host.isEmpty else { throw .invalidRequest("The proxy URL has no host; write it as http://host:port.") }
        guard (1...65535).contains(port) else { throw Self.badPort }
        self.init(host: String(host), port: port, credentials: credentials)
    }

    private static var badPort: SwitchyardError {
        .invalidRequest("The proxy URL's port is not a number from 1 to 65535; write it as http://host:port.")
    }

    /// `host:port`, with an IPv6 address in brackets: how messages name the proxy.
    public var hostAndPort: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// `http://host:port` without credentials.
    public var urlWithoutCredentials: String { "http://" + hostAndPort }

    /// `http://user:<redacted>@host:port` (or `http://host:port`): never the password.
    public var description: String {
        guard let credentials else { return urlWithoutCredentials }
        return "http://\(credentials)@\(hostAndPort)"
    }

    /// A mirror without the password, so `dump(_:)` does not print it either.
    public var customMirror: Mirror {
        Mirror(self, children: ["host": host, "port": port, "credentials": credentials as Any])
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and line breaks.
    func trimmingASCIIWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
