/// Sets query parameters on a URL string, keeping the rest of its query and its fragment.
enum QueryEditing {
    /// `url` with each of `parameters` set: existing parameters of the same names are removed,
    /// the new ones appended (values percent-encoded), everything else kept as written.
    static func url(_ url: String, setting parameters: [(name: String, value: String)]) -> String {
        guard !parameters.isEmpty else { return url }
        var base = Substring(url)
        var fragment: Substring = ""
        if let hash = base.firstIndex(of: "#") {
            fragment = base[hash...]
            base = base[..<hash]
        }
        var kept: [Substring] = []
        if let mark = base.firstIndex(of: "?") {
            let names = Set(parameters.map(\.name))
            kept = base[base.index(after: mark)...].split(separator: "&").filter { pair in
                let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
                return !names.contains(String(name))
            }
            base = base[..<mark]
        }
        let added = parameters.map { encode($0.name) + "=" + encode($0.value) }
        return base + "?" + (kept.map(String.init) + added).joined(separator: "&") + fragment
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters.
    static func encode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return result
    }
}
