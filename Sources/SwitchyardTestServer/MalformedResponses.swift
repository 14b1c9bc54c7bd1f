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
        case "content-length-last-wins":
            .some(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 10\r\nContent-Length: 5\r\n\r\nhello"))
        case "content-length-list": .some(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\nab"))
        case "content-length-huge":
            .some(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\nhello"))
        case "trailers": .some(trailers)
        case "status-099", "status-050", "status-000":
            .some(ByteBuffer(string: "HTTP/1.1 \(kind.suffix(3)) Odd\r\nContent-Length: 2\r\n\r\nok"))
        case "switching-protocols":
            .some(ByteBuffer(string: "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"))
        case "no-reason-phrase": .some(ByteBuffer(string: "HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok"))
        case "bare-lf": .some(ByteBuffer(string: "HTTP/1.1 200 OK\nContent-Type: text/plain\nContent-Length: 2\n\nok"))
        case "latin1-header": .some(latin1Header)
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
        var buffer = ByteBuffer(
            string: "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\na\r\n")
        buffer.writeImmutableBuffer(BodyPattern.piece(at: 0, length: 10))
        buffer.writeStaticString("\r\n")
        return buffer
    }()
    /// A chunk-size line that is not hexadecimal.
    static let badChunk = ByteBuffer(string: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n")
    /// A chunked body (`hello`) followed by a trailer field.
    static let trailers = ByteBuffer(
        string: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-Checksum\r\n\r\n"
            + "5\r\nhello\r\n0\r\nX-Checksum: 5d41402a\r\n\r\n")
    /// A header value with a Latin-1 byte (0xE9), which is not UTF-8.
    static let latin1Header: ByteBuffer = {
        var buffer = ByteBuffer(string: "HTTP/1.1 200 OK\r\nX-Name: caf")
        buffer.writeInteger(UInt8(0xE9))
        buffer.writeString("\r\nContent-Length: 2\r\n\r\nok")
        return buffer
    }()
    /// `count` `103` interim responses, then a 200 with body `ok`.
    static func interimFlood(count: Int) -> ByteBuffer {
        let interim = "HTTP/1.1 103 Early Hints\r\n\r\n"
        var buffer = ByteBuffer()
        buffer.reserveCapacity(count * interim.utf8.count + 64)
        for _ in 0..<count { buffer.writeString(interim) }
        buffer.writeString("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        return buffer
    }
    /// Two conflicting Content-Length headers and a 5-byte body.
    static let contentLengthMismatch = ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhello")
}
