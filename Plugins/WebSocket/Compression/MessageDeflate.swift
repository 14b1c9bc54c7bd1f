import CZlib
import NIOCore

/// One raw-deflate stream (RFC 1951, no wrapper) in one direction, as permessage-deflate uses it:
/// each message ends with a sync flush whose `00 00 FF FF` tail is left off the wire (RFC 7692 §7.2.1).
///
/// Not thread-safe: owned by one connection's handler on its event loop. The `z_stream` lives on
/// the heap because zlib keeps a pointer to it and checks that it never moves.
final class MessageDeflate {
    /// Which way the stream runs.
    enum Direction {
        case compress(windowBits: Int32)
        case decompress
    }

    /// Why a message could not be inflated.
    enum Failure: Error {
        /// The inflated message passed the limit.
        case tooLarge
        /// The compressed data is not a valid deflate stream.
        case corrupt(String)
    }

    private static let tail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]
    private let compressing: Bool
    private let stream: UnsafeMutablePointer<z_stream>

    /// - Returns: `nil` when zlib cannot start (out of memory, or a window it does not support).
    init?(_ direction: Direction) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status: Int32
        switch direction {
        case .compress(let windowBits):
            compressing = true
            status = czlib_deflate_init(stream, 6, -windowBits)
        case .decompress:
            compressing = false
            status = czlib_inflate_init(stream, -15)
        }
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
    }

    deinit {
        if compressing { deflateEnd(stream) } else { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Forgets the history, for a side that does not take its context over to the next message.
    func reset() {
        if compressing { deflateReset(stream) } else { inflateReset(stream) }
    }

    /// Compresses one whole message and drops the flush's tail.
    func compress(_ message: ByteBuffer, allocator: ByteBufferAllocator) -> ByteBuffer {
        var output = allocator.buffer(capacity: message.readableBytes / 2 + 64)
        message.withUnsafeReadableBytes { input in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
            stream.pointee.avail_in = UInt32(input.count)
            repeat {
                output.reserveCapacity(minimumWritableBytes: max(256, Int(stream.pointee.avail_in) / 2 + 64))
                _ = output.writeWithUnsafeMutableBytes(minimumWritableBytes: 0) { room in
                    stream.pointee.next_out = room.bindMemory(to: Bytef.self).baseAddress
                    stream.pointee.avail_out = UInt32(room.count)
                    _ = deflate(stream, Z_SYNC_FLUSH)
                    return room.count - Int(stream.pointee.avail_out)
                }
            } while stream.pointee.avail_out == 0 || stream.pointee.avail_in > 0
        }
        if output.readableBytes >= 4, output.getBytes(at: output.writerIndex - 4, length: 4) == Self.tail {
            output.moveWriterIndex(to: output.writerIndex - 4)
        }
        return output
    }

    /// Inflates one frame's payload of a compressed message, appending to `output`; the message's
    /// last frame (`final`) also gets the tail back. `output` never grows past `limit` bytes.
    /// - Throws: ``Failure``.
    func decompress(_ payload: ByteBuffer, final: Bool, into output: inout ByteBuffer, limit: Int) throws(Failure) {
        // A sender may end a message with a final block instead of a sync flush (RFC 7692 §7.2.3.3):
        // the stream then ends inside the payload, the next message starts a new one, and the tail
        // (the rest of a sync flush) must not be inflated.
        if try inflate(payload), final { try inflate(ByteBuffer(bytes: Self.tail)) }

        /// - Returns: `false` when the deflate stream ended (and was reset for the next message).
        @discardableResult
        func inflate(_ input: ByteBuffer) throws(Failure) -> Bool {
            var failure: Failure?
            var open = true
            input.withUnsafeReadableBytes { bytes in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.bindMemory(to: Bytef.self).baseAddress)
                stream.pointee.avail_in = UInt32(bytes.count)
                while failure == nil {
                    let room = min(max(bytes.count * 4, 4096), limit - output.readableBytes + 1)
                    output.reserveCapacity(minimumWritableBytes: room)
                    var status = Z_OK
                    _ = output.writeWithUnsafeMutableBytes(minimumWritableBytes: 0) { space in
                        let usable = min(space.count, room)
                        stream.pointee.next_out = space.bindMemory(to: Bytef.self).baseAddress
                        stream.pointee.avail_out = UInt32(usable)
                        status = CZlib.inflate(stream, Z_SYNC_FLUSH)
                        return usable - Int(stream.pointee.avail_out)
                    }
                    if output.readableBytes > limit {
                        failure = .tooLarge
                    } else if status == Z_STREAM_END {
                        reset()
                        open = false
                        break
                    } else if status == Z_BUF_ERROR || (status == Z_OK && stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0) {
                        break  // all input consumed and nothing more to write out
                    } else if status != Z_OK {
                        failure = .corrupt(stream.pointee.msg.map { String(cString: $0) } ?? "zlib status \(status)")
                    }
                }
            }
            if let failure { throw failure }
            return open
        }
    }
}
