import NIOCore

/// The deterministic body pattern: byte `i` of a generated body is `UInt8(i % 251)`.
enum BodyPattern {
    /// Size of the pieces bodies are generated and written in.
    static let pieceSize = 64 * 1024

    /// `pieceSize + 251` bytes of the pattern starting at offset 0, so that any piece
    /// at any offset is a zero-copy slice of it.
    static let buffer: ByteBuffer = {
        var buffer = ByteBufferAllocator().buffer(capacity: pieceSize + 251)
        for i in 0..<(pieceSize + 251) { buffer.writeInteger(UInt8(i % 251)) }
        return buffer
    }()

    /// The `length` (≤ `pieceSize`) pattern bytes that start at body offset `offset`.
    static func piece(at offset: Int, length: Int) -> ByteBuffer {
        precondition(length <= pieceSize)
        return buffer.getSlice(at: offset % 251, length: length)!
    }

    /// Appends `count` pattern bytes (starting at byte 0) to `buffer`.
    static func append(count: Int, to buffer: inout ByteBuffer) {
        var offset = 0
        while offset < count {
            let length = min(pieceSize, count - offset)
            buffer.writeImmutableBuffer(piece(at: offset, length: length))
            offset += length
        }
    }
}
