import NIOHTTP1

/// Builds the JSON document `/echo` returns.
enum EchoResponse {
    /// `{"method":…,"uri":…,"version":…,"headers":[[name,value],…],"body_length":N,"body_sha256":"hex"}`
    /// with headers in received order, original case, repeated headers as separate pairs.
    static func json(for request: IncomingRequest) -> String {
        var out = "{\"method\":"
        appendString(request.head.method.rawValue, to: &out)
        out += ",\"uri\":"
        appendString(request.head.uri, to: &out)
        out += ",\"version\":"
        appendString("HTTP/\(request.head.version.major).\(request.head.version.minor)", to: &out)
        out += ",\"headers\":["
        var first = true
        for (name, value) in request.head.headers {
            if !first { out += "," }
            first = false
            out += "["
            appendString(name, to: &out)
            out += ","
            appendString(value, to: &out)
            out += "]"
        }
        out += "],\"body_length\":\(request.bodyLength),\"body_sha256\":\"\(request.bodyDigest())\"}"
        return out
    }

    /// Appends `value` as a JSON string literal.
    static func appendString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
