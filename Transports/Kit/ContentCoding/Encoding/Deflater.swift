import CZlib
import SwitchyardCore

/// One zlib deflate stream writing gzip: plain bytes in, compressed bytes out, chunk by chunk.
///
/// The counterpart of ``Inflater``. Not thread-safe; owned by one body iterator. The `z_stream`
/// lives on the heap because zlib keeps a pointer to it and checks that it never moves. Memory is
/// bounded by zlib's own state (about 256 KiB at the default settings), one output piece, and the
/// compressed bytes of the input passed to one ``deflate(_:finish:)`` call.
final class Deflater: ContentEncoder {
    /// zlib writes into a buffer of this size; one call's output is gathered from such pieces.
    static let pieceSize = 64 * 1024

    private let stream: UnsafeMutablePointer<z_stream>
    private var output = [UInt8](repeating: 0, count: Deflater.pieceSize)

    /// Starts a gzip stream.
    /// - Parameter level: zlib's compression level, 1 (fastest) … 9 (smallest).
    /// - Throws: ``SwitchyardError/Kind/transport`` when zlib cannot start (out of memory).
    init(level: Int32) throws(SwitchyardError) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // 16 + 15: the gzip wrapper around a 32 KiB window.
        guard czlib_deflate_init(stream, level, 31) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw .transportFailed("zlib could not start an encoder (out of memory?).")
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Compresses `input`; with `finish`, also ends the stream (gzip trailer included).
    /// - Parameters:
    ///   - input: The next plain bytes (may be empty).
    ///   - finish: Whether these are the last bytes.
    /// - Returns: The compressed bytes zlib released (often none until enough input has gathered).
    /// - Throws: ``SwitchyardError/Kind/transport`` on a zlib failure (never expected).
    func deflate(_ input: ArraySlice<UInt8>, finish: Bool) throws(SwitchyardError) -> [UInt8] {
        var produced: [UInt8] = []
        var input = input
        let flush = finish ? Z_FINISH : Z_NO_FLUSH
        var code = Z_OK
        repeat {
            let outputCount = output.count
            code = input.withUnsafeMutableBufferPointer { inputBuffer in
                output.withUnsafeMutableBufferPointer { outputBuffer in
                    stream.pointee.next_in = inputBuffer.baseAddress
                    stream.pointee.avail_in = UInt32(inputBuffer.count)
                    stream.pointee.next_out = outputBuffer.baseAddress
                    stream.pointee.avail_out = UInt32(outputCount)
                    return CZlib.deflate(stream, flush)
                }
            }
            let consumed = input.count - Int(stream.pointee.avail_in)
            input = input.dropFirst(consumed)
            produced.append(contentsOf: output[0..<(outputCount - Int(stream.pointee.avail_out))])
            if code == Z_BUF_ERROR { code = Z_OK }  // no progress possible: not an error
            guard code == Z_OK || code == Z_STREAM_END else {
                throw .transportFailed("zlib failed to compress the request body (error \(code)).")
            }
            // Go on while zlib filled the whole output piece, input remains, or the end is unwritten.
        } while code != Z_STREAM_END && (stream.pointee.avail_out == 0 || !input.isEmpty || finish)
        return produced
    }

    /// ``deflate(_:finish:)``, as a ``ContentEncoder``.
    func encode(_ input: ArraySlice<UInt8>, finish: Bool) throws(SwitchyardError) -> [UInt8] {
        try deflate(input, finish: finish)
    }
}
