import CZlib
import NIOConcurrencyHelpers
import NIOCore

/// Compressed bodies made at run time with the system zlib: gzip bombs of any size (zeros) and
/// gzip of arbitrary bytes, for the decoding and size-limit routes.
enum Deflate {
    /// `bytes` as one gzip member (level 9).
    static func gzip(_ bytes: [UInt8]) -> [UInt8] {
        compress(totalInput: bytes.count) { offset, room in Array(bytes[offset..<min(bytes.count, offset + room)]) }
    }

    /// `count` zero bytes, gzip- (`zlibWrapper == false`) or zlib-wrapped, compressed at level 9
    /// (about 1,000 : 1). Cached: a bomb is made once per size and wrapper.
    static func zeros(count: Int, zlibWrapper: Bool) -> ByteBuffer {
        let key = Key(count: count, zlibWrapper: zlibWrapper)
        if let cached = cache.withLockedValue({ $0[key] }) { return cached }
        let block = [UInt8](repeating: 0, count: 1 << 16)
        let bytes = compress(totalInput: count, windowBits: zlibWrapper ? 15 : 31) { offset, room in
            Array(block[0..<min(room, count - offset, block.count)])
        }
        let buffer = ByteBuffer(bytes: bytes)
        cache.withLockedValue { $0[key] = buffer }
        return buffer
    }

    private struct Key: Hashable {
        let count: Int
        let zlibWrapper: Bool
    }
    private static let cache = NIOLockedValueBox<[Key: ByteBuffer]>([:])

    /// Runs deflate over `totalInput` bytes handed out by `input(offset, room)`.
    static func compress(
        totalInput: Int, windowBits: Int32 = 31,
        input: (Int, Int) -> [UInt8]
    ) -> [UInt8] {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer {
            deflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        guard czlib_deflate_init(stream, 9, windowBits) == Z_OK else { return [] }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var offset = 0
        while true {
            var piece = offset < totalInput ? input(offset, 1 << 16) : []
            offset += piece.count
            let flush = offset >= totalInput ? Z_FINISH : Z_NO_FLUSH
            var status = Z_OK
            piece.withUnsafeMutableBufferPointer { inBuffer in
                stream.pointee.next_in = inBuffer.baseAddress
                stream.pointee.avail_in = UInt32(inBuffer.count)
                repeat {
                    chunk.withUnsafeMutableBufferPointer { outBuffer in
                        stream.pointee.next_out = outBuffer.baseAddress
                        stream.pointee.avail_out = UInt32(outBuffer.count)
                        status = CZlib.deflate(stream, flush)
                        if status == Z_BUF_ERROR { status = Z_OK }  // no progress possible: not an error
                        output.append(contentsOf: outBuffer[0..<(outBuffer.count - Int(stream.pointee.avail_out))])
                    }
                } while status == Z_OK && (stream.pointee.avail_out == 0 || flush == Z_FINISH)
            }
            if status != Z_OK { return output }  // Z_STREAM_END, or an error (never with these inputs)
        }
    }
}
