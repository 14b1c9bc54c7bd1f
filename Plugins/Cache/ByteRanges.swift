import Foundation
import HTTPTypes
import SwitchyardCore

/// The single byte range of a request's `Range` field (RFC 9110 §14.1.2): `bytes=first-last`,
/// `bytes=first-` or `bytes=-suffixLength`. Anything else — another unit, several ranges, numbers
/// out of order or too long — is not one, and such a request is left to the network.
struct ByteRangeRequest: Sendable, Hashable {
    /// The first byte's offset, or `nil` for a suffix range.
    let first: Int?
    /// The last byte's offset (`first-last`), or the suffix length (`-suffixLength`); `nil` for `first-`.
    let last: Int?

    /// Parses a `Range` field value.
    /// - Parameter value: E.g. `bytes=0-499`.
    init?(_ value: String) {
        let text = value[...].trimmingOptionalWhitespace()
        guard let equals = text.firstIndex(of: "="),
            text[..<equals].trimmingOptionalWhitespace().lowercased() == "bytes"
        else { return nil }
        let spec = text[text.index(after: equals)...].trimmingOptionalWhitespace()
        guard let dash = spec.firstIndex(of: "-") else { return nil }
        let start = spec[..<dash]
        let end = spec[spec.index(after: dash)...]
        if start.isEmpty {
            // `-N`: the last N bytes; zero of them is unsatisfiable.
            guard let length = Self.number(end), length > 0 else { return nil }
            (first, last) = (nil, length)
        } else {
            guard let startOffset = Self.number(start) else { return nil }
            let endOffset = end.isEmpty ? nil : Self.number(end)
            guard end.isEmpty || endOffset.map({ $0 >= startOffset }) == true else { return nil }
            (first, last) = (startOffset, endOffset)
        }
    }

    /// The bytes this range selects in a representation of `length` bytes, or `nil` when it
    /// selects none (a start at or past the end: the origin answers `416`).
    /// - Parameter length: The representation's length.
    /// - Returns: The offsets of the first and last selected byte.
    func resolved(length: Int) -> ClosedRange<Int>? {
        guard length > 0 else { return nil }
        guard let first else { return max(0, length - (last ?? 0))...(length - 1) }
        guard first < length else { return nil }
        return first...min(last ?? (length - 1), length - 1)
    }

    /// A run of 1 to 15 ASCII digits (no sign, no spaces: the grammar's `1*DIGIT`, bounded so
    /// that no arithmetic on it can overflow).
    static func number(_ text: Substring) -> Int? {
        guard (1...15).contains(text.utf8.count),
            text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int(text)
    }
}

/// A 206 response's `Content-Range: bytes first-last/complete-length` (RFC 9110 §14.4), with a
/// known complete length; an unknown length (`*`), another unit or an impossible range is none.
struct ContentRange: Sendable, Hashable {
    /// The offsets of the first and last byte the response carries.
    let range: ClosedRange<Int>
    /// The whole representation's length.
    let length: Int

    /// Parses a `Content-Range` field value.
    /// - Parameter value: E.g. `bytes 0-499/1234`.
    init?(_ value: String) {
        let text = value[...].trimmingOptionalWhitespace()
        guard let space = text.firstIndex(of: " "), text[..<space].lowercased() == "bytes" else { return nil }
        let spec = text[text.index(after: space)...].trimmingOptionalWhitespace()
        guard let dash = spec.firstIndex(of: "-"), let slash = spec.firstIndex(of: "/"), dash < slash,
            let first = ByteRangeRequest.number(spec[..<dash]),
            let last = ByteRangeRequest.number(spec[spec.index(after: dash)..<slash]),
            let length = ByteRangeRequest.number(spec[spec.index(after: slash)...]),
            first <= last, last < length
        else { return nil }
        self.range = first...last
        self.length = length
    }

    /// The field value for `range` of a representation of `length` bytes.
    static func value(_ range: ClosedRange<Int>, length: Int) -> String {
        "bytes \(range.lowerBound)-\(range.upperBound)/\(length)"
    }
}

/// Partial content in the cache (RFC 9111 §3.3, §3.4): which bytes a stored response holds, the
/// slice of it a range request gets, and 206 responses combined into larger parts.
extension CachedResponse {
    /// The bytes of the representation the stored body holds and the representation's length: all
    /// of it for a complete `200`, the `Content-Range` of a `206`. `nil` when the stored response
    /// cannot answer ranges: another status, a content coding (ranges count encoded bytes the body
    /// may no longer have), an empty body, or a body whose size disagrees with its fields.
    var storedSpan: ContentRange? {
        if let coding = headerFields[.contentEncoding], coding.lowercased() != "identity" { return nil }
        switch status {
        case 200:
            guard !body.isEmpty, headerFields[.contentLength].map({ Int($0) == body.count }) ?? true else { return nil }
            return ContentRange("bytes 0-\(body.count - 1)/\(body.count)")
        case 206:
            guard let span = headerFields[.contentRange].flatMap(ContentRange.init), span.range.count == body.count else {
                return nil
            }
            return span
        default:
            return nil
        }
    }

    /// The bytes `range` selects, when this stored response holds all of them, and the
    /// representation's length.
    /// - Parameter range: The request's range.
    /// - Returns: The offsets selected, or `nil` when they are not all stored.
    func slice(for range: ByteRangeRequest) -> ContentRange? {
        guard let span = storedSpan, let wanted = range.resolved(length: span.length),
            span.range.lowerBound <= wanted.lowerBound, wanted.upperBound <= span.range.upperBound
        else { return nil }
        return ContentRange(ContentRange.value(wanted, length: span.length))
    }

    /// Whether a request's `If-Range` names this stored representation (RFC 9110 §13.1.5), so that
    /// its `Range` applies: an entity tag must equal the stored strong one; a date must be the stored
    /// `Last-Modified` and a strong validator, which a cache can only tell from a `Date` at least a
    /// second later (§8.8.2.2). Anything else, a weak tag included, does not hold.
    /// - Parameter value: The `If-Range` field's value.
    func holdsIfRange(_ value: String) -> Bool {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let trimmed = String(value.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
        if trimmed.hasPrefix("\"") || trimmed.hasPrefix("W/") {
            return strongETag.map { $0 == trimmed } ?? false
        }
        let now = Date(timeIntervalSince1970: responseTime)
        guard let asked = HTTPDate(trimmed, now: now), let modified = time(in: .lastModified), let date = time(in: .date)
        else { return false }
        return Double(asked.secondsSince1970) == modified && date - modified >= 1
    }

    /// The response's strong entity tag (`W/` tags are weak, RFC 9110 §8.8.3), if any.
    var strongETag: String? {
        guard let tag = headerFields[.eTag], !tag.hasPrefix("W/") else { return nil }
        return tag
    }

    /// What to store after the partial response `part` arrived, given the response `stored` under
    /// its key (RFC 9111 §3.4): `part` combined with a stored part of the same representation (the
    /// same strong validator and length) that it overlaps or adjoins, taking `part`'s header fields;
    /// `part` alone otherwise. A part that now holds the whole representation becomes a complete
    /// `200`. `nil` when nothing should be stored: `part` is not usable partial content, or the
    /// whole representation with the same validator is stored already.
    /// - Parameters:
    ///   - part: The new `206`, with its body.
    ///   - stored: What is stored under the key, if anything.
    ///   - limit: The largest body to store; a larger combination keeps `part` alone.
    /// - Returns: The response to store, or `nil`.
    static func combining(_ part: CachedResponse, with stored: CachedResponse?, limit: Int) -> CachedResponse? {
        guard part.status == 206, let partSpan = part.storedSpan else { return nil }
        var result = part
        var span = partSpan
        if let stored, let storedSpan = stored.storedSpan, let tag = part.strongETag, stored.strongETag == tag,
            storedSpan.length == partSpan.length
        {
            if stored.status == 200 { return nil }
            let lower = min(storedSpan.range.lowerBound, partSpan.range.lowerBound)
            let upper = max(storedSpan.range.upperBound, partSpan.range.upperBound)
            let touches =
                partSpan.range.lowerBound <= storedSpan.range.upperBound + 1
                && storedSpan.range.lowerBound <= partSpan.range.upperBound + 1
            if touches, upper - lower + 1 <= limit {
                var bytes = [UInt8](repeating: 0, count: upper - lower + 1)
                let storedStart = storedSpan.range.lowerBound - lower
                bytes.replaceSubrange(storedStart..<(storedStart + stored.body.count), with: stored.body)
                let partStart = partSpan.range.lowerBound - lower
                bytes.replaceSubrange(partStart..<(partStart + part.body.count), with: part.body)
                result.body = bytes
                span = ContentRange(ContentRange.value(lower...upper, length: partSpan.length)) ?? partSpan
            }
        }
        if span.range == 0...(span.length - 1) {
            result.status = 200
            result.headerFields[.contentRange] = nil
        } else {
            result.headerFields[.contentRange] = ContentRange.value(span.range, length: span.length)
        }
        result.headerFields[.contentLength] = String(result.body.count)
        return result
    }
}
