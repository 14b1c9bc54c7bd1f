/// Percent-encoding of path parameters and query items (RFC 3986: unreserved bytes stay).
enum PercentEncoding {
    /// `text` with every byte outside `A–Z a–z 0–9 - . _ ~` percent-encoded.
    static func encode(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                result.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0x0F)]))
            }
        }
        return result
    }

    /// `name=value&…`, each part encoded.
    static func query(_ items: [QueryItem]) -> String {
        items.map { item in
            item.value.map { encode(item.name) + "=" + encode($0) } ?? encode(item.name)
        }.joined(separator: "&")
    }
}

/// One query parameter; a `nil` value is written as the bare name (`?flag`).
public struct QueryItem: Sendable, Hashable {
    /// The parameter's name.
    public var name: String
    /// Its value, or `nil` for a bare name.
    public var value: String?

    /// Creates a parameter.
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value.
    public init(_ name: String, _ value: String?) {
        self.name = name
        self.value = value
    }
}
