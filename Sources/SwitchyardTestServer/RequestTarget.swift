/// The request-target of an origin-form request, split into path and query.
///
/// Parsing is deliberately minimal: the path is kept exactly as received (used for routing and
/// for ``LoopbackServer/requestCount(path:)``) and query values are percent-decoded on lookup.
struct RequestTarget {
    /// The path as received, without the query (`/bytes/10`).
    let path: Substring
    /// The raw query without the leading `?`, or `nil` when there is none.
    let query: Substring?

    init(uri: String) {
        if let mark = uri.utf8.firstIndex(of: UInt8(ascii: "?")) {
            path = uri[..<mark]
            query = uri[uri.index(after: mark)...]
        } else {
            path = uri[...]
            query = nil
        }
    }

    /// Path components without the leading empty component (`/a/b` → `["a", "b"]`).
    var components: [Substring] {
        var parts = path.split(separator: "/", omittingEmptySubsequences: false)
        if parts.first == "" { parts.removeFirst() }
        return parts
    }

    /// The percent-decoded value of the first query parameter called `name`, if any.
    func value(_ name: String) -> String? {
        guard let query else { return nil }
        for pair in query.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if percentDecode(kv[0]) == name { return kv.count > 1 ? percentDecode(kv[1]) : "" }
        }
        return nil
    }

    /// The percent-decoded values of every query parameter called `name`, in order.
    func values(_ name: String) -> [String] {
        guard let query else { return [] }
        return query.split(separator: "&").compactMap { pair in
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return percentDecode(kv[0]) == name ? (kv.count > 1 ? percentDecode(kv[1]) : "") : nil
        }
    }
}

/// Decodes `%XX` escapes (`+` stays `+`). Invalid escapes are kept literally.
func percentDecode(_ text: Substring) -> String {
    let utf8 = Array(text.utf8)
    guard utf8.contains(UInt8(ascii: "%")) else { return String(text) }
    var out: [UInt8] = []
    out.reserveCapacity(utf8.count)
    var i = 0
    while i < utf8.count {
        let byte = utf8[i]
        if byte == UInt8(ascii: "%"), i + 2 < utf8.count, let hi = hexValue(utf8[i + 1]), let lo = hexValue(utf8[i + 2]) {
            out.append(hi << 4 | lo)
            i += 3
        } else {
            out.append(byte)
            i += 1
        }
    }
    return String(decoding: out, as: UTF8.self)
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}
