/// The head of a request a client sent to the proxy: request line and fields, as received.
struct ProxyRequestHead {
    /// The request line's method, e.g. `GET` or `CONNECT`.
    let method: Substring
    /// The request target: `http://host:port/path` (absolute form) or `host:port` (`CONNECT`).
    let target: Substring
    /// `HTTP/1.1` or `HTTP/1.0`.
    let version: Substring
    /// The header lines, name and value, in order.
    let fields: [(name: Substring, value: Substring)]

    /// The most bytes of head the proxy reads before answering 431.
    static let maxBytes = 64 * 1024

    /// Parses `text` (everything before the blank line); `nil` if the request line is malformed.
    init?(_ text: Substring) {
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)[...]
        guard let requestLine = lines.popFirst() else { return nil }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else { return nil }
        method = parts[0]
        target = parts[1]
        version = parts[2]
        var fields: [(Substring, Substring)] = []
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            fields.append((line[..<colon], line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }))
        }
        self.fields = fields
    }

    /// The first value of the field `name` (case-insensitive).
    func value(of name: String) -> Substring? {
        fields.first { $0.name.lowercased() == name }?.value
    }

    /// `host:port` and origin-form path of an absolute-form `http://` target, or `nil`.
    var absoluteTarget: (authority: String, host: String, port: Int, path: String)? {
        guard target.lowercased().hasPrefix("http://") else { return nil }
        let rest = target.dropFirst("http://".count)
        let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<slash]
        var path = String(rest[slash...])
        if path.isEmpty { path = "/" } else if path.hasPrefix("?") { path = "/" + path }
        guard let (host, port) = Self.split(authority, defaultPort: 80) else { return nil }
        return (String(authority), host, port, path)
    }

    /// Host and port of a `CONNECT host:port` target, or `nil`.
    var connectTarget: (host: String, port: Int)? {
        Self.split(target, defaultPort: nil)
    }

    private static func split(_ authority: Substring, defaultPort: Int?) -> (String, Int)? {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            let host = authority[authority.index(after: authority.startIndex)..<close]
            let rest = authority[authority.index(after: close)...]
            if rest.isEmpty, let defaultPort { return (String(host), defaultPort) }
            guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()) else { return nil }
            return (String(host), port)
        }
        guard let colon = authority.lastIndex(of: ":") else {
            guard let defaultPort, !authority.isEmpty else { return nil }
            return (String(authority), defaultPort)
        }
        guard let port = Int(authority[authority.index(after: colon)...]) else { return nil }
        return (String(authority[..<colon]), port)
    }
}
