import HTTPTypes
import SwitchyardCore
import SwitchyardTransportKit

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
        // One allocation for the fields instead of a regrowth every few lines.
        parser.fields.reserveCapacity(block.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 })
        let parsed = block.withUnsafeBytes { bytes -> Result<HTTPResponse, SwitchyardError> in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
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
        let prefix = "HTTP/".utf8
        guard line.count >= prefix.count, line.prefix(prefix.count).elementsEqual(prefix),
            let space = line.firstIndex(of: UInt8(ascii: " "))
        else {
            throw malformedStatus(line)
        }
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
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0 else {
            throw .protocolViolation("The server sent a header line without a name and colon: \(Self.preview(line)).")
        }
        let nameBytes = UnsafeRawBufferPointer(rebasing: line[..<colon])
        guard let name = CommonFieldNames.name(nameBytes) ?? HTTPField.Name(String(decoding: nameBytes, as: UTF8.self)) else {
            throw .protocolViolation("The server sent an invalid header name: \(Self.preview(line)).")
        }
        let value = Self.trimmed(UnsafeRawBufferPointer(rebasing: line[(colon + 1)...]))  // no copy until the field
        guard HTTPField.isValidValue(value) else {
            throw .protocolViolation("The server sent header '\(name.rawName)' with control characters in its value.")
        }
        // An ASCII value (nearly every one) becomes a String directly: the byte initialiser validates
        // UTF-8 through the standard library's unspecialised generic path, a metadata lookup per field.
        if value.allSatisfy({ $0 < 0x80 }) {
            fields.append(HTTPField(name: name, value: String(decoding: value, as: UTF8.self)))
        } else {
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
