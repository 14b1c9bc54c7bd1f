import SwitchyardCore

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
        /// Lower-cased UTF-8, without leading or trailing dots.
        case name([UInt8])
        case ipv4(address: UInt32, mask: UInt32)
        /// Lower-cased UTF-8, without brackets.
        case ipv6([UInt8])
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
                if !name.isEmpty { entries.append(.name(Array(name.utf8))) }
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
        var text = String(host)
        return text.withUTF8 { matches($0) }
    }

    /// ``matches(host:)`` on the host's UTF-8 bytes; allocates nothing.
    func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !entries.isEmpty else { return false }
        var host = bytes[...]
        if host.first == UInt8(ascii: "["), host.last == UInt8(ascii: "]") { host = host.dropFirst().dropLast() }
        while host.last == UInt8(ascii: ".") { host = host.dropLast() }
        let isIPv6 = host.contains(UInt8(ascii: ":"))
        let ipv4 = isIPv6 ? nil : Self.parseIPv4(host)
        for entry in entries {
            switch entry {
            case .any:
                return true
            case .name(let name):
                if ipv4 == nil, !isIPv6, Self.hostMatches(host, name: name) { return true }
            case .ipv4(let address, let mask):
                if let ipv4, ipv4 & mask == address & mask { return true }
            case .ipv6(let address):
                if isIPv6, Self.equalIgnoringCase(host, address[...]) { return true }
            }
        }
        return false
    }

    /// `host` equals `name` or ends with `.name`, ignoring ASCII case.
    private static func hostMatches(_ host: Slice<UnsafeBufferPointer<UInt8>>, name: [UInt8]) -> Bool {
        guard host.count >= name.count else { return false }
        let start = host.endIndex - name.count
        if host.count > name.count, host[start - 1] != UInt8(ascii: ".") { return false }
        return equalIgnoringCase(host[start...], name[...])
    }

    /// Whether `bytes` equals the lower-case `lowered`, ignoring ASCII case.
    private static func equalIgnoringCase(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ lowered: ArraySlice<UInt8>) -> Bool {
        guard bytes.count == lowered.count else { return false }
        var other = lowered.startIndex
        for byte in bytes {
            let folded = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            guard folded == lowered[other] else { return false }
            other += 1
        }
        return true
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
        if let ipv4 = parseIPv4(address.utf8) {
            let bits = min(max(prefix ?? 32, 0), 32)
            let mask: UInt32 = bits == 0 ? 0 : ~UInt32(0) << (32 - bits)
            return .ipv4(address: ipv4, mask: mask)
        }
        if address.contains(":"), address.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) {
            return .ipv6(Array(address.lowercased().utf8))
        }
        return nil
    }

    /// A dotted-quad IPv4 address as a number, or `nil`; allocates nothing.
    static func parseIPv4<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt32? {
        var value: UInt32 = 0
        var part: UInt32 = 0
        var digits = 0
        var parts = 0
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, parts < 3 else { return nil }
                value = value << 8 | part
                parts += 1
                part = 0
                digits = 0
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 3 {
                part = part * 10 + UInt32(byte - UInt8(ascii: "0"))
                guard part <= 255 else { return nil }
                digits += 1
            } else {
                return nil
            }
        }
        guard digits > 0, parts == 3 else { return nil }
        return value << 8 | part
    }
}
