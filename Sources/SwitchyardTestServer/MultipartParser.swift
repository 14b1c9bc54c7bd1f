#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A streaming `multipart/form-data` parser (RFC 7578, RFC 2046 §5.1) for `/upload/multipart`.
///
/// Bytes are fed as they arrive; a part's content is counted and hashed on the way through and
/// never kept (except the first 4 KiB of parts without a file name, reported as their value), so
/// memory stays bounded whatever the upload's size. Only the tail that could be the start of a
/// delimiter is carried between feeds.
struct MultipartParser {
    /// One parsed part.
    struct Part {
        var name: String?
        var filename: String?
        var contentType: String?
        var byteCount = 0
        var sha256 = ""
        /// The content of a part without a file name, if it is at most ``MultipartParser/maxValueBytes``.
        var value: String?
    }

    private enum Phase { case preamble, afterDelimiter, headers, content, epilogue }

    /// Largest header block of one part.
    static let maxHeaderBytes = 16 * 1024
    /// Largest field value reported back.
    static let maxValueBytes = 4 * 1024

    /// The parts completed so far.
    private(set) var parts: [Part] = []
    /// Why the body is malformed, once it is.
    private(set) var failure: String?

    private let delimiter: [UInt8]
    /// Unprocessed bytes; starts with a CRLF so that the first delimiter needs no special case.
    private var pending: [UInt8] = [13, 10]
    private var phase = Phase.preamble
    private var current = Part()
    private var hasher = BodyDigest()
    private var valueBytes: [UInt8]? = []

    /// A parser for the `Content-Type` header `contentType`; `nil` when it has no usable boundary.
    init?(contentType: String?) {
        guard let contentType, let boundary = Self.boundary(in: contentType) else { return nil }
        delimiter = Array("\r\n--\(boundary)".utf8)
    }

    /// Feeds the next body bytes.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil, phase != .epilogue else { return }
        pending.append(contentsOf: bytes)
        process()
    }

    /// Ends the body; records a failure when the closing delimiter never came.
    mutating func finish() {
        if failure == nil, phase != .epilogue { failure = "the body ended before the closing boundary" }
    }

    // MARK: - Parsing

    private mutating func process() {
        var start = 0
        parsing: while failure == nil {
            switch phase {
            case .preamble, .content:
                if let found = find(delimiter, from: start) {
                    if phase == .content {
                        consume(start, found)
                        endPart()
                    }
                    start = found + delimiter.count
                    phase = .afterDelimiter
                } else {
                    let keep = max(start, pending.count - (delimiter.count - 1))
                    if phase == .content { consume(start, keep) }
                    start = keep
                    break parsing
                }
            case .afterDelimiter:
                guard pending.count - start >= 2 else { break parsing }
                if pending[start] == UInt8(ascii: "-"), pending[start + 1] == UInt8(ascii: "-") {
                    phase = .epilogue
                    start = pending.count
                    break parsing
                }
                guard let lineEnd = find([13, 10], from: start) else {
                    if pending.count - start > 256 { failure = "a boundary line does not end" }
                    break parsing
                }
                start = lineEnd + 2
                beginPart()
            case .headers:
                let blockEnd: Int
                let bodyStart: Int
                if pending.count - start >= 2, pending[start] == 13, pending[start + 1] == 10 {
                    blockEnd = start
                    bodyStart = start + 2
                } else if let found = find([13, 10, 13, 10], from: start) {
                    blockEnd = found
                    bodyStart = found + 4
                } else {
                    if pending.count - start > Self.maxHeaderBytes { failure = "a part's headers are too large" }
                    break parsing
                }
                parseHeaders(String(decoding: pending[start..<blockEnd], as: UTF8.self))
                start = bodyStart
                phase = .content
            case .epilogue:
                start = pending.count
                break parsing
            }
        }
        pending.removeFirst(min(start, pending.count))
    }

    private mutating func beginPart() {
        current = Part()
        hasher = BodyDigest()
        valueBytes = []
        phase = .headers
    }

    private mutating func consume(_ from: Int, _ to: Int) {
        guard to > from else { return }
        current.byteCount += to - from
        pending.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[from..<to])) }
        if valueBytes != nil {
            if (valueBytes?.count ?? 0) + (to - from) > Self.maxValueBytes {
                valueBytes = nil
            } else {
                valueBytes?.append(contentsOf: pending[from..<to])
            }
        }
    }

    private mutating func endPart() {
        current.sha256 = BodyDigest.hex(hasher.finalize())
        hasher = BodyDigest()
        if current.filename == nil, let valueBytes { current.value = String(decoding: valueBytes, as: UTF8.self) }
        parts.append(current)
    }

    private mutating func parseHeaders(_ block: String) {
        for line in block.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else {
                failure = "a part header line has no colon"
                return
            }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].strippingBlanks()
            switch name {
            case "content-disposition":
                let parameters = Self.parameters(value)
                current.name = parameters["name"]
                current.filename = parameters["filename*"].flatMap(Self.extendedValue) ?? parameters["filename"]
            case "content-type":
                current.contentType = value
            default:
                break
            }
        }
        if current.name == nil { failure = "a part has no Content-Disposition name" }
    }

    /// The index where `needle` starts in `pending` at or after `from`.
    private func find(_ needle: [UInt8], from: Int) -> Int? {
        guard let first = needle.first, pending.count - from >= needle.count else { return nil }
        return pending.withUnsafeBytes { raw -> Int? in
            guard let base = raw.baseAddress else { return nil }
            var index = from
            let last = raw.count - needle.count
            while index <= last {
                guard let hit = memchr(base + index, Int32(first), last - index + 1) else { return nil }
                let position = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + position, needle, needle.count) == 0 { return position }
                index = position + 1
            }
            return nil
        }
    }

    // MARK: - Header values

    /// The `boundary` parameter of a `multipart/form-data` content type.
    static func boundary(in contentType: String) -> String? {
        let kind = contentType.split(separator: ";", maxSplits: 1).first.map { $0.strippingBlanks().lowercased() }
        guard kind == "multipart/form-data", let boundary = parameters(contentType)["boundary"],
            !boundary.isEmpty, boundary.utf8.count <= 70
        else { return nil }
        return boundary
    }

    /// `; key=value` / `; key="quoted value"` parameters, keys lowercased; quoted values have
    /// `\"`-escapes removed and the `%22`, `%0D`, `%0A` escapes browsers use (RFC 7578 §4.2) decoded.
    static func parameters(_ header: String) -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(header)
        guard let firstSemicolon = rest.firstIndex(of: ";") else { return result }
        rest = rest[rest.index(after: firstSemicolon)...]
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == ";" }
            guard let equals = rest.firstIndex(of: "=") else { break }
            let key = rest[..<equals].strippingBlanks().lowercased()
            rest = rest[rest.index(after: equals)...]
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                while let character = rest.first, character != "\"" {
                    rest = rest.dropFirst()
                    if character == "\\", let escaped = rest.first {
                        value.append(escaped)
                        rest = rest.dropFirst()
                    } else {
                        value.append(character)
                    }
                }
                rest = rest.dropFirst()
                value = value.replacing("%22", with: "\"").replacing("%0D", with: "\r").replacing("%0A", with: "\n")
            } else {
                let end = rest.firstIndex(of: ";") ?? rest.endIndex
                value = rest[..<end].strippingBlanks()
                rest = rest[end...]
            }
            result[key] = value
        }
        return result
    }

    /// An RFC 8187 `UTF-8''percent-encoded` value, decoded.
    static func extendedValue(_ text: String) -> String? {
        let pieces = text.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3, pieces[0].lowercased() == "utf-8" else { return nil }
        return percentDecode(pieces[2])
    }
}
