import HTTPTypes
import SwitchyardCore
import SwitchyardTransportKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns the header lines libcurl hands to its header callback into an `HTTPResponse`, defensively.
///
/// libcurl delivers one complete line per call, status line first, an empty line at the end of
/// each header block. Interim (1xx) blocks are skipped; the first final block is the head.
/// A line that is not HTTP — a malformed status line, a header without a colon, an illegal name
/// or value — is a ``SwitchyardError/Kind/protocolViolation``, never a crash.
struct CurlHeaderParser {
    /// What one line did to the parser.
    enum Outcome: Equatable {
        /// The line was absorbed; more are expected.
        case needMore
        /// The line ended an interim (1xx) block; a final block follows.
        case interimEnded
        /// The line ended the final block: the head is complete.
        case complete(HTTPResponse)
    }

    private var status: HTTPResponse.Status?
    private var fields = HTTPFields()
    private var lastFieldIndex: HTTPFields.Index?

    /// Feeds one line (with or without its CR LF).
    /// - Parameter line: The raw bytes of the line.
    /// - Returns: What the line did.
    /// - Throws: ``SwitchyardError/Kind/protocolViolation`` for a line that is not valid HTTP.
    mutating func consume(_ line: UnsafeRawBufferPointer) throws(SwitchyardError) -> Outcome {
        var end = line.count
        if end > 0, line[end - 1] == UInt8(ascii: "\n") {
            end -= 1
            // RFC 9112 §2.2 lets a client accept a bare LF; the other transports' parsers refuse it,
            // and lenient line endings are a request-smuggling ingredient, so this one does too.
            guard end > 0, line[end - 1] == UInt8(ascii: "\r") else {
                throw .protocolViolation("The server ended a head line with a bare LF instead of CR LF: \(Self.preview(line)).")
            }
        }
        if end > 0, line[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let content = UnsafeRawBufferPointer(rebasing: line[0..<end])

        guard let status else {
            self.status = try Self.parseStatusLine(content)
            return .needMore
        }
        if content.isEmpty {
            defer { reset() }
            if status.kind == .informational, status.code != 101 { return .interimEnded }
            return .complete(HTTPResponse(status: status, headerFields: fields))
        }
        if content[0] == UInt8(ascii: " ") || content[0] == UInt8(ascii: "\t") {
            try appendContinuation(content)
        } else {
            try appendField(content)
        }
        return .needMore
    }

    /// Parses a final header block as the event loop framed it (see ``CurlHeadFramer``): a status
    /// line, field lines and the empty line that ends it, each ending in LF or CR LF.
    /// - Parameter block: The block's raw bytes.
    /// - Returns: The response head.
    /// - Throws: ``SwitchyardError/Kind/protocolViolation`` for a block that is not a valid HTTP head.
    static func parseHead(_ block: [UInt8]) throws(SwitchyardError) -> HTTPResponse {
        var parser = CurlHeaderParser()
        let parsed = block.withUnsafeBytes { bytes -> Result<HTTPResponse, SwitchyardError> in
            // One allocation for the fields instead of a regrowth every few lines.
            var lines = 0
            var start = 0
            while start < bytes.count {
                lines += 1
                start = lineEnd(in: bytes, from: start) + 1
            }
            parser.fields.reserveCapacity(lines)
            start = 0
            while start < bytes.count {
                let end = lineEnd(in: bytes, from: start)
                let line = UnsafeRawBufferPointer(rebasing: bytes[start..<min(end + 1, bytes.count)])
                start = end + 1
                do throws(SwitchyardError) {
                    if case .complete(let head) = try parser.consume(line) { return .success(head) }
                } catch {
                    return .failure(error)
                }
            }
            return .failure(.protocolViolation("The server's response head ended before its empty line."))
        }
        return try parsed.get()
    }

    private mutating func reset() {
        status = nil
        fields = HTTPFields()
        lastFieldIndex = nil
    }

    // MARK: - Lines

    /// Parses `HTTP/<version> <3 digits>[ <reason>]`.
    static func parseStatusLine(_ line: UnsafeRawBufferPointer) throws(SwitchyardError) -> HTTPResponse.Status {
        guard line.count >= 5, line[0] == UInt8(ascii: "H"), line[1] == UInt8(ascii: "T"), line[2] == UInt8(ascii: "T"),
            line[3] == UInt8(ascii: "P"), line[4] == UInt8(ascii: "/")
        else {
            throw malformedStatus(line)
        }
        let space = index(of: UInt8(ascii: " "), in: line, from: 5)
        guard space < line.count else { throw malformedStatus(line) }
        let codeStart = space + 1
        guard line.count >= codeStart + 3 else { throw malformedStatus(line) }
        var code = 0
        for byte in line[codeStart..<codeStart + 3] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { throw malformedStatus(line) }
            code = code * 10 + Int(byte - UInt8(ascii: "0"))
        }
        guard code >= 100 else { throw malformedStatus(line) }
        var reason = ""
        if line.count > codeStart + 3 {
            guard line[codeStart + 3] == UInt8(ascii: " ") else { throw malformedStatus(line) }
            reason = String(decoding: line[(codeStart + 4)...], as: UTF8.self)
            if !HTTPField.isValidValue(reason) { reason = "" }
        }
        return HTTPResponse.Status(code: code, reasonPhrase: reason)
    }

    private mutating func appendField(_ line: UnsafeRawBufferPointer) throws(SwitchyardError) {
        let colon = Self.index(of: UInt8(ascii: ":"), in: line, from: 0)
        guard colon < line.count, colon > 0 else {
            throw .protocolViolation("The server sent a header line without a name and colon: \(Self.preview(line)).")
        }
        let nameBytes = UnsafeRawBufferPointer(rebasing: line[..<colon])
        guard let name = CommonFieldNames.name(nameBytes) ?? HTTPField.Name(String(decoding: nameBytes, as: UTF8.self)) else {
            throw .protocolViolation("The server sent an invalid header name: \(Self.preview(line)).")
        }
        let value = Self.trimmed(UnsafeRawBufferPointer(rebasing: line[(colon + 1)...]))  // no copy until the field
        switch Self.scan(value) {
        case .invalid:
            throw .protocolViolation("The server sent header '\(name.rawName)' with control characters in its value.")
        case .ascii:
            // An ASCII value (nearly every one) becomes a String directly: the byte initialiser validates
            // UTF-8 through the standard library's unspecialised generic path, a metadata lookup per field.
            fields.append(HTTPField(name: name, value: String(decoding: value, as: UTF8.self)))
        case .nonASCII:
            fields.append(HTTPField(name: name, value: value))
        }
        lastFieldIndex = fields.index(before: fields.endIndex)
    }

    /// An obsolete line folding (RFC 9112 §5.2): the line continues the previous field's value.
    private mutating func appendContinuation(_ line: UnsafeRawBufferPointer) throws(SwitchyardError) {
        guard let index = lastFieldIndex else {
            throw .protocolViolation("The server sent a continuation line before any header field.")
        }
        let more = Self.trimmed(line)
        guard HTTPField.isValidValue(more) else {
            throw .protocolViolation("The server sent a folded header line with control characters.")
        }
        let field = fields[index]
        fields[index] = HTTPField(name: field.name, value: Array(field.value.utf8) + [UInt8(ascii: " ")] + Array(more))
    }

    // MARK: - Helpers

    /// The index of the first line feed at or after `start`, or the end of `bytes` if there is none.
    private static func lineEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        index(of: UInt8(ascii: "\n"), in: bytes, from: start)
    }

    /// The index of the first `byte` at or after `start`, or the end of `bytes` if there is none
    /// (`memchr`: the head is scanned a word at a time, not a byte at a time).
    private static func index(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        guard let base = bytes.baseAddress, start < bytes.count,
            let found = memchr(base + start, Int32(byte), bytes.count - start)
        else { return bytes.count }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// What the bytes of a trimmed field value are.
    private enum ValueBytes {
        /// A byte RFC 9110 does not allow in a field value (a control character other than tab).
        case invalid
        case ascii
        /// Allowed, with obs-text (bytes of 0x80 and above) among them.
        case nonASCII
    }

    /// Checks a trimmed value's bytes against RFC 9110's field-value (visible characters, obs-text,
    /// spaces and tabs inside) and tells whether they are all ASCII, in one pass over them.
    private static func scan(_ value: UnsafeRawBufferPointer) -> ValueBytes {
        var nonASCII = false
        for byte in value {
            switch byte {
            case UInt8(ascii: "\t"), 0x20...0x7E: continue
            case 0x80...0xFF: nonASCII = true
            default: return .invalid
            }
        }
        return nonASCII ? .nonASCII : .ascii
    }

    /// `bytes` without leading and trailing spaces and tabs, as a view of the same memory.
    private static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        let isSpace: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
            let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(rebasing: bytes[first...last])
    }

    private static func malformedStatus(_ line: UnsafeRawBufferPointer) -> SwitchyardError {
        .protocolViolation("The server sent a malformed status line: \(preview(line)).")
    }

    private static func preview(_ line: UnsafeRawBufferPointer) -> String {
        let text = String(decoding: line.prefix(80), as: UTF8.self)
        let printable = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
        return "'\(printable)'" + (line.count > 80 ? "…" : "")
    }
}
