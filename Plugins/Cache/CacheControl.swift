import HTTPTypes

/// The `Cache-Control` directives a private cache acts on (RFC 9111 §5.2, RFC 5861 §3), parsed
/// from every `Cache-Control` field of a request or response. Unknown directives are ignored;
/// `s-maxage` is read only because it allows storing a response to an authorized request (§3.5).
/// Of a directive given twice, the first valid occurrence counts (§4.2.1).
struct CacheControl: Sendable, Hashable {
    /// `max-age=N` in seconds.
    var maxAge: Int?
    /// `s-maxage=N` in seconds (shared caches only; this cache ignores it for freshness).
    var sharedMaxAge: Int?
    /// Unqualified `no-cache`: a stored response must be validated before each use.
    var noCache = false
    /// `no-cache="name, …"` (a response's qualified form, §5.2.2.4): the response may be stored and
    /// reused, but without these fields (lower-cased names).
    var noCacheFields: [String] = []
    /// `no-store`: nothing about the exchange may be stored.
    var noStore = false
    /// `must-revalidate`: once stale, the response must not be used without validation.
    var mustRevalidate = false
    /// `private`: for a single user; a private cache may store it.
    var isPrivate = false
    /// `public`: any cache may store it, even for an authorized request.
    var isPublic = false
    /// A request's `max-stale[=N]` (§5.2.1.2): a stale response is acceptable if stale by at most
    /// `N` seconds; `Int.max` without an argument (any staleness).
    var maxStale: Int?
    /// A request's `min-fresh=N` (§5.2.1.3): only a response fresh for at least `N` more seconds.
    var minFresh: Int?
    /// A request's `only-if-cached` (§5.2.1.7): a stored response, or `504`, never the network.
    var onlyIfCached = false
    /// A response's `stale-while-revalidate=N` (RFC 5861 §3): once stale, it may be served for `N`
    /// more seconds while it is revalidated in the background.
    var staleWhileRevalidate: Int?

    /// Parses the directives of `fields`.
    /// - Parameter fields: The request's or response's header fields.
    init(_ fields: HTTPFields) {
        // One pass over each value, without intermediate arrays: a hit parses the stored directives.
        // Commas inside a quoted argument (`no-cache="Set-Cookie, X-Token"`) do not split it.
        for field in fields where field.name == .cacheControl {
            let value = field.value[...]
            let bytes = value.utf8
            var itemStart = bytes.startIndex
            var index = bytes.startIndex
            var isQuoted = false
            var isEscaped = false
            while index != bytes.endIndex {
                let byte = bytes[index]
                if isQuoted {
                    if isEscaped {
                        isEscaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        isEscaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        isQuoted = false
                    }
                } else if byte == UInt8(ascii: "\"") {
                    isQuoted = true
                } else if byte == UInt8(ascii: ",") {
                    parse(value[itemStart..<index])
                    itemStart = bytes.index(after: index)
                }
                bytes.formIndex(after: &index)
            }
            parse(value[itemStart..<bytes.endIndex])
        }
    }

    /// Applies one directive, `name` or `name=argument`.
    private mutating func parse(_ item: Substring) {
        let equals = item.firstIndex(of: "=")
        let name = item[..<(equals ?? item.endIndex)].trimmingOptionalWhitespace()
        let argument = equals.map { Self.unquoted(item[item.index(after: $0)...]) }
        switch Self.lowercasedName(name) {
        case "max-age": maxAge = maxAge ?? argument.flatMap(Self.seconds)
        case "s-maxage": sharedMaxAge = sharedMaxAge ?? argument.flatMap(Self.seconds)
        case "no-cache":
            let names = argument.map(Self.fieldNames) ?? []
            if names.isEmpty { noCache = true } else { noCacheFields += names }
        case "no-store": noStore = true
        case "must-revalidate", "proxy-revalidate": mustRevalidate = true
        case "private": isPrivate = true
        case "public": isPublic = true
        case "max-stale":
            // Without an argument any staleness is acceptable; an invalid argument accepts none.
            guard maxStale == nil else { break }
            if let argument { maxStale = Self.seconds(argument) } else { maxStale = .max }
        case "min-fresh": minFresh = minFresh ?? argument.flatMap(Self.seconds)
        case "only-if-cached": onlyIfCached = true
        case "stale-while-revalidate": staleWhileRevalidate = staleWhileRevalidate ?? argument.flatMap(Self.seconds)
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

    /// The lower-cased field names of a qualified directive's argument (`Set-Cookie, X-Token`).
    private static func fieldNames(_ text: Substring) -> [String] {
        text.split(separator: ",").compactMap { part in
            let name = part.trimmingOptionalWhitespace()
            return name.isEmpty ? nil : name.lowercased()
        }
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
