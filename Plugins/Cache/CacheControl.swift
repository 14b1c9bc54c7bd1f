import HTTPTypes

/// The `Cache-Control` directives a private cache acts on (RFC 9111 §5.2), parsed from every
/// `Cache-Control` field of a request or response. Unknown directives are ignored; `s-maxage`
/// is read only because it allows storing a response to an authorized request (§3.5).
struct CacheControl: Sendable, Hashable {
    /// `max-age=N` in seconds.
    var maxAge: Int?
    /// `s-maxage=N` in seconds (shared caches only; this cache ignores it for freshness).
    var sharedMaxAge: Int?
    /// `no-cache`: a stored response must be validated before each use.
    var noCache = false
    /// `no-store`: nothing about the exchange may be stored.
    var noStore = false
    /// `must-revalidate`: once stale, the response must not be used without validation.
    var mustRevalidate = false
    /// `private`: for a single user; a private cache may store it.
    var isPrivate = false
    /// `public`: any cache may store it, even for an authorized request.
    var isPublic = false

    /// Parses the directives of `fields`.
    /// - Parameter fields: The request's or response's header fields.
    init(_ fields: HTTPFields) {
        // One pass over each value, without intermediate arrays: a hit parses the stored directives.
        for field in fields where field.name == .cacheControl {
            let value = field.value[...]
            var itemStart = value.startIndex
            while itemStart < value.endIndex {
                let itemEnd = value[itemStart...].firstIndex(of: ",") ?? value.endIndex
                parse(value[itemStart..<itemEnd])
                itemStart = itemEnd < value.endIndex ? value.index(after: itemEnd) : itemEnd
            }
        }
    }

    /// Applies one directive, `name` or `name=argument`.
    private mutating func parse(_ item: Substring) {
        let equals = item.firstIndex(of: "=")
        let name = item[..<(equals ?? item.endIndex)].trimmingOptionalWhitespace()
        let argument = equals.map { Self.unquoted(item[item.index(after: $0)...]) }
        switch Self.lowercasedName(name) {
        case "max-age": maxAge = argument.flatMap(Self.seconds)
        case "s-maxage": sharedMaxAge = argument.flatMap(Self.seconds)
        case "no-cache": noCache = true
        case "no-store": noStore = true
        case "must-revalidate", "proxy-revalidate": mustRevalidate = true
        case "private": isPrivate = true
        case "public": isPublic = true
        default: break
        }
    }

    /// `name` in lower case; directive names are ASCII, and most arrive lower-case already.
    private static func lowercasedName(_ name: Substring) -> Substring {
        let hasUpperCase = name.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
        return hasUpperCase ? Substring(name.lowercased()) : name
    }

    /// A delta-seconds value (§1.2.2): digits only; too large a value is taken as 2^31.
    private static func seconds(_ text: Substring) -> Int? {
        let isDigits = text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard !text.isEmpty, isDigits else { return nil }
        return Int(text).map { min($0, 1 << 31) } ?? (1 << 31)
    }

    private static func unquoted(_ text: Substring) -> Substring {
        let trimmed = text.trimmingOptionalWhitespace()
        guard trimmed.count >= 2, trimmed.first == "\"", trimmed.last == "\"" else { return trimmed }
        return trimmed.dropFirst().dropLast()
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    func trimmingOptionalWhitespace() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
