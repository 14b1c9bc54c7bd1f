import NIOCore

/// Byte-exact broken responses served under `/malformed/{kind}`; the connection is closed after each.
enum MalformedResponses {
    /// The raw bytes for `kind`, `.some(nil)` for `empty` (close without sending), or `nil` if unknown.
    static func bytes(for kind: Substring) -> ByteBuffer?? {
        switch kind {
        case "status-line": .some(statusLine)
        case "garbage": .some(garbage)
        case "header-line": .some(headerLine)
        case "truncated-length": .some(truncatedLength)
        case "truncated-chunked": .some(truncatedChunked)
        case "bad-chunk": .some(badChunk)
        case "content-length-mismatch": .some(contentLengthMismatch)
        case "empty": .some(nil)
        default: nil
        }
    }

    /// Non-numeric status code.
    static let statusLine = ByteBuffer(string: "HTTP/1.1 2x0 OK\r\nContent-Length: 2\r\n\r\nok")
    /// Not HTTP at all.
    static let garbage = ByteBuffer(string: "this is not http\r\n\r\n")
    /// A header line without a colon.
    static let headerLine = ByteBuffer(string: "HTTP/1.1 200 OK\r\nthis line has no colon\r\nContent-Length: 2\r\n\r\nok")
    /// Announces 100 bytes, sends 50 (pattern bytes 0..<50).
    static let truncatedLength: ByteBuffer = {
        var buffer = ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 100\r\n\r\n")
        buffer.writeImmutableBuffer(BodyPattern.piece(at: 0, length: 50))
        return buffer
    }()
    /// One valid 10-byte chunk (pattern bytes 0..<10), then no terminating chunk.
    static let truncatedChunked: ByteBuffer = {
        var buffer = ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\na\r\n")
        buffer.writeImmutableBuffer(BodyPattern.piece(at: 0, length: 10))
        buffer.writeStaticString("\r\n")
        return buffer
    }()
    /// A chunk-size line that is not hexadecimal.
    static let badChunk = ByteBuffer(string: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n")
    /// Two conflicting Content-Length headers and a 5-byte body.
    static let contentLengthMismatch = ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhello")
}
