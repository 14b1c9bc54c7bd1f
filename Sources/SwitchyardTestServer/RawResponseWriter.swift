import NIOCore
import NIOHTTP1

/// A response status line plus header fields, serialized by hand into raw bytes.
///
/// No validation happens here on purpose: the routes decide the exact bytes on the wire.
struct ResponseHead {
    /// Numeric status code.
    var status: Int
    /// Header fields in wire order, case preserved.
    var headers: [(name: String, value: String)]

    init(status: Int, headers: [(name: String, value: String)] = []) {
        self.status = status
        self.headers = headers
    }

    /// Appends a header field.
    mutating func add(_ name: String, _ value: String) {
        headers.append((name, value))
    }

    /// Writes `HTTP/1.1 <status> <reason>`, the headers, an optional `Connection` header and the blank line.
    func write(into buffer: inout ByteBuffer, connection: String?) {
        buffer.writeStaticString("HTTP/1.1 ")
        buffer.writeString(String(status))
        buffer.writeStaticString(" ")
        buffer.writeString(reasonPhrase(for: status))
        buffer.writeStaticString("\r\n")
        for (name, value) in headers {
            buffer.writeString(name)
            buffer.writeStaticString(": ")
            buffer.writeString(value)
            buffer.writeStaticString("\r\n")
        }
        if let connection {
            buffer.writeStaticString("Connection: ")
            buffer.writeString(connection)
            buffer.writeStaticString("\r\n")
        }
        buffer.writeStaticString("\r\n")
    }
}

/// The standard reason phrase for `status`, or `Status` for codes without one.
func reasonPhrase(for status: Int) -> String {
    let phrase = HTTPResponseStatus(statusCode: status).reasonPhrase
    return phrase.isEmpty ? "Status" : phrase
}

/// Chunked transfer-coding helpers.
enum ChunkedFraming {
    /// `"<hex size>\r\n"` for a chunk of `size` bytes.
    static func header(size: Int, allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: 12)
        buffer.writeString(String(size, radix: 16))
        buffer.writeStaticString("\r\n")
        return buffer
    }

    /// The `\r\n` that ends every chunk's data.
    static let chunkEnd = ByteBuffer(string: "\r\n")
    /// The terminating zero-size chunk with an empty trailer section.
    static let last = ByteBuffer(string: "0\r\n\r\n")
}
