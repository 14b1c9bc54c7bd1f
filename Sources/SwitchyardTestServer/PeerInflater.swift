import CZlib
import NIOCore

/// The WebSocket peers' side of permessage-deflate (RFC 7692 §7.2.2): one raw inflate stream per
/// connection, its window kept from message to message; each message gets the `00 00 FF FF` tail back.
final class PeerInflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private var ready: Bool

    init() {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        ready = czlib_inflate_init(stream, -15) == Z_OK
    }

    deinit {
        if ready { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// The message `payload` inflates to, or `nil` when it is not valid deflate data.
    func inflate(_ payload: ByteBuffer) -> ByteBuffer? {
        guard ready else { return nil }
        var input = Array(payload.readableBytesView) + [0x00, 0x00, 0xFF, 0xFF]
        var output = ByteBuffer()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var status = Z_OK
        input.withUnsafeMutableBufferPointer { bytes in
            stream.pointee.next_in = bytes.baseAddress
            stream.pointee.avail_in = UInt32(bytes.count)
            repeat {
                chunk.withUnsafeMutableBufferPointer { room in
                    stream.pointee.next_out = room.baseAddress
                    stream.pointee.avail_out = UInt32(room.count)
                    status = CZlib.inflate(stream, Z_SYNC_FLUSH)
                    output.writeBytes(room[0..<(room.count - Int(stream.pointee.avail_out))])
                }
            } while status == Z_OK && stream.pointee.avail_out == 0
        }
        if status == Z_STREAM_END { inflateReset(stream) }
        return status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR ? output : nil
    }
}
