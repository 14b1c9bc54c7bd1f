/// The hosts that bypass the proxy, written and matched as curl reads `NO_PROXY` (and
/// `CURLOPT_NOPROXY`):
///
/// - a comma-separated list (spaces around entries ignored, empty entries skipped);
/// - `*` matches every host;
/// - a name matches itself and every subdomain: `example.com` and `.example.com` both match
///   `example.com` and `www.example.com`, not `notexample.com` (case-insensitive, a trailing dot ignored);
/// - an IP address matches that address; an IPv4 address with a prefix length (`10.0.0.0/8`)
///   matches the range; IPv6 addresses are written without brackets and compared as text;
/// - the request's port is ignored (`example.com` matches `example.com:8443`), and so is a port
///   written in an entry (`example.com:80` is read as `example.com`).
///
/// ```swift
/// let bypass: NoProxyList = "localhost, .internal, 10.0.0.0/8"
/// bypass.matches(host: "api.internal")   // true
/// ```
public struct NoProxyList: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    enum Entry: Sendable, Hashable {
        case any
        /// Lower-cased, without leading or trailing dots.
        case name(String)
        case ipv4(address: UInt32, mask: UInt32)
        /// Lower-cased, without brackets.
        case ipv6(String)
    }

    let entries: [Entry]
    /// The list as written.
    public let description: String

    /// No host bypasses the proxy.
    public static let none = NoProxyList("")

    /// Parses a `NO_PROXY`-style list.
    /// - Parameter list: Comma-separated entries, e.g. `"localhost,.internal,10.0.0.0/8"`.
    public init(_ list: String) {
        description = list
        var entries: [Entry] = []
        for raw in list.split(separator: ",") {
            let token = String(raw).trimmingASCIIWhitespace()
            guard !token.isEmpty else { continue }
            if token == "*" {
                entries.append(.any)
            } else if let entry = Self.ipEntry(token) {
                entries.append(entry)
            } else {
                var name = token.lowercased()[...]
                if let colon = name.lastIndex(of: ":"), Int(name[name.index(after: colon)...]) != nil {
                    name = name[..<colon]
                }
                while name.hasPrefix(".") { name = name.dropFirst() }
                while name.hasSuffix(".") { name = name.dropLast() }
                if !name.isEmpty { entries.append(.name(String(name))) }
            }
        }
        self.entries = entries
    }

    /// Parses a `NO_PROXY`-style list (see ``init(_:)``).
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// Whether no entry was given.
    public var isEmpty: Bool { entries.isEmpty }

    /// Whether requests to `host` go direct.
    /// - Parameter host: A host name or IP address, IPv6 with or without brackets, without a port.
    public func matches<Host: StringProtocol>(host: Host) -> Bool {
        guard !entries.isEmpty else { return false }
        var host = Substring(host)
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        while host.hasSuffix(".") { host = host.dropLast() }
        let ipv4 = host.contains(":") ? nil : Self.parseIPv4(host)
        for entry in entries {
            switch entry {
            case .any:
                return true
            case .name(let name):
                if Self.hostMatches(host, name: name) { return true }
            case .ipv4(let address, let mask):
                if let ipv4, ipv4 & mask == address & mask { return true }
            case .ipv6(let address):
                if host.count == address.count, host.lowercased() == address { return true }
            }
        }
        return false
    }

    /// `host` equals `name` or ends with `.name`, ignoring ASCII case, without allocating.
    private static func hostMatches(_ host: Substring, name: String) -> Bool {
        let hostBytes = host.utf8
        let nameBytes = name.utf8
        guard hostBytes.count >= nameBytes.count else { return false }
        let start = hostBytes.index(hostBytes.endIndex, offsetBy: -nameBytes.count)
        if hostBytes.count > nameBytes.count, hostBytes[hostBytes.index(before: start)] != UInt8(ascii: ".") {
            return false
        }
        return zip(hostBytes[start...], nameBytes).allSatisfy { lowered($0) == $1 }
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }

    private static func ipEntry(_ token: Substring) -> Entry? {
        var address = token
        var prefix: Int?
        if let slash = token.firstIndex(of: "/") {
            guard let bits = Int(token[token.index(after: slash)...]) else { return nil }
            prefix = bits
            address = token[..<slash]
        }
        if address.hasPrefix("["), address.hasSuffix("]") { address = address.dropFirst().dropLast() }
        if let ipv4 = parseIPv4(address) {
            let bits = min(max(prefix ?? 32, 0), 32)
            let mask: UInt32 = bits == 0 ? 0 : ~UInt32(0) << (32 - bits)
            return .ipv4(address: ipv4, mask: mask)
        }
        if address.contains(":"), address.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) {
            return .ipv6(address.lowercased())
        }
        return nil
    }

    /// A dotted-quad IPv4 address as a number, or `nil`.
    static func parseIPv4<Text: StringProtocol>(_ text: Text) -> UInt32? {
        var value: UInt32 = 0
        var parts = 0
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            guard part.count <= 3, let byte = UInt8(part) else { return nil }
            value = value << 8 | UInt32(byte)
            parts += 1
        }
        return parts == 4 ? value : nil
    }
}
