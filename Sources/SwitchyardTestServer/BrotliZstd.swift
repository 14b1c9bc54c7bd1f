#if canImport(CBrotli) && canImport(CZstd)
import CBrotli
import CZstd
import NIOConcurrencyHelpers
import NIOCore

/// br and zstd bodies made at run time with the system libraries, for the `/coded/…` routes and the
/// `/gunzip` route's zstd and br request bodies: fixtures are generated, never hard-coded.
enum BrotliZstd {
    /// `totalInput` bytes handed out by `input(offset, room)`, brotli-compressed at `quality` as they come.
    static func brotli(totalInput: Int, quality: UInt32 = 5, input: (Int, Int) -> [UInt8]) -> [UInt8] {
        guard let state = BrotliEncoderCreateInstance(nil, nil, nil) else { return [] }
        defer { BrotliEncoderDestroyInstance(state) }
        BrotliEncoderSetParameter(state, BROTLI_PARAM_QUALITY, quality)
        var output: [UInt8] = []
        var offset = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let piece = offset < totalInput ? input(offset, 1 << 16) : []
            offset += piece.count
            let finish = offset >= totalInput
            var ok = true
            piece.withUnsafeBufferPointer { inBuffer in
                var placeholder: UInt8 = 0
                withUnsafeMutablePointer(to: &placeholder) { empty in
                    var nextIn: UnsafePointer<UInt8>? = inBuffer.baseAddress ?? UnsafePointer(empty)
                    var availableIn = inBuffer.count
                    repeat {
                        let room = chunk.count
                        var availableOut = room
                        chunk.withUnsafeMutableBufferPointer { outBuffer in
                            var nextOut = outBuffer.baseAddress
                            ok =
                                BrotliEncoderCompressStream(
                                    state, finish ? BROTLI_OPERATION_FINISH : BROTLI_OPERATION_PROCESS,
                                    &availableIn, &nextIn, &availableOut, &nextOut, nil) != 0
                        }
                        output.append(contentsOf: chunk[0..<(room - availableOut)])
                    } while ok && (availableIn > 0 || BrotliEncoderHasMoreOutput(state) != 0)
                }
            }
            if !ok { return [] }
            if finish { return output }
        }
    }

    /// `totalInput` bytes handed out by `input(offset, room)` as one zstd frame (level 3, checksum).
    static func zstd(totalInput: Int, level: Int32 = 3, input: (Int, Int) -> [UInt8]) -> [UInt8] {
        guard let context = ZSTD_createCCtx() else { return [] }
        defer { ZSTD_freeCCtx(context) }
        ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level)
        ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)
        var output: [UInt8] = []
        var offset = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let piece = offset < totalInput ? input(offset, 1 << 16) : []
            offset += piece.count
            let finish = offset >= totalInput
            var remaining = 0
            piece.withUnsafeBytes { inBytes in
                var inBuffer = ZSTD_inBuffer(src: inBytes.baseAddress, size: inBytes.count, pos: 0)
                repeat {
                    let room = chunk.count
                    var written = 0
                    chunk.withUnsafeMutableBytes { outBytes in
                        var outBuffer = ZSTD_outBuffer(dst: outBytes.baseAddress, size: room, pos: 0)
                        remaining = ZSTD_compressStream2(context, &outBuffer, &inBuffer, finish ? ZSTD_e_end : ZSTD_e_continue)
                        written = outBuffer.pos
                    }
                    output.append(contentsOf: chunk[0..<written])
                } while ZSTD_isError(remaining) == 0 && (inBuffer.pos < inBuffer.size || (finish && remaining != 0))
            }
            if ZSTD_isError(remaining) != 0 { return [] }
            if finish { return output }
        }
    }

    /// `bytes` compressed with `coding` (`br` or `zstd`).
    static func compress(_ bytes: [UInt8], coding: String) -> [UInt8] {
        let slice: (Int, Int) -> [UInt8] = { offset, room in Array(bytes[offset..<min(bytes.count, offset + room)]) }
        return coding == "br" ? brotli(totalInput: bytes.count, input: slice) : zstd(totalInput: bytes.count, input: slice)
    }

    /// `count` zero bytes compressed with `coding`, made in 64 KiB pieces (a bomb); cached per size.
    static func zeros(count: Int, coding: String) -> ByteBuffer {
        let key = "\(coding) \(count)"
        if let cached = cache.withLockedValue({ $0[key] }) { return cached }
        let block = [UInt8](repeating: 0, count: 1 << 16)
        let zeros: (Int, Int) -> [UInt8] = { offset, room in Array(block[0..<min(room, count - offset, block.count)]) }
        let bytes =
            coding == "br"
            ? brotli(totalInput: count, quality: 9, input: zeros) : zstd(totalInput: count, level: 19, input: zeros)
        let buffer = ByteBuffer(bytes: bytes)
        cache.withLockedValue { $0[key] = buffer }
        return buffer
    }
    private static let cache = NIOLockedValueBox<[String: ByteBuffer]>([:])

    /// `bytes` decoded from `coding` (`br` or `zstd`, any number of zstd frames), or `nil` when they
    /// are not a complete, valid stream.
    static func decompress(_ bytes: [UInt8], coding: String) -> [UInt8]? {
        coding == "br" ? unbrotli(bytes) : unzstd(bytes)
    }

    private static func unbrotli(_ bytes: [UInt8]) -> [UInt8]? {
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else { return nil }
        defer { BrotliDecoderDestroyInstance(state) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var result = BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT
        var left = 0
        bytes.withUnsafeBufferPointer { inBuffer in
            var placeholder: UInt8 = 0
            withUnsafeMutablePointer(to: &placeholder) { empty in
                var nextIn: UnsafePointer<UInt8>? = inBuffer.baseAddress ?? UnsafePointer(empty)
                var availableIn = inBuffer.count
                while result == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT {
                    let room = chunk.count
                    var availableOut = room
                    chunk.withUnsafeMutableBufferPointer { outBuffer in
                        var nextOut = outBuffer.baseAddress
                        result = BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                    }
                    output.append(contentsOf: chunk[0..<(room - availableOut)])
                }
                left = availableIn
            }
        }
        return result == BROTLI_DECODER_RESULT_SUCCESS && left == 0 ? output : nil
    }

    private static func unzstd(_ bytes: [UInt8]) -> [UInt8]? {
        guard let context = ZSTD_createDCtx() else { return nil }
        defer { ZSTD_freeDCtx(context) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var last = 1
        let complete: Bool = bytes.withUnsafeBytes { inBytes in
            var inBuffer = ZSTD_inBuffer(src: inBytes.baseAddress, size: inBytes.count, pos: 0)
            while inBuffer.pos < inBuffer.size || last != 0 {
                let room = chunk.count
                var written = 0
                chunk.withUnsafeMutableBytes { outBytes in
                    var outBuffer = ZSTD_outBuffer(dst: outBytes.baseAddress, size: room, pos: 0)
                    last = ZSTD_decompressStream(context, &outBuffer, &inBuffer)
                    written = outBuffer.pos
                }
                if ZSTD_isError(last) != 0 { return false }
                output.append(contentsOf: chunk[0..<written])
                if written == 0, inBuffer.pos == inBuffer.size, last != 0 { return false }  // truncated
            }
            return true
        }
        return complete && !bytes.isEmpty ? output : nil
    }
}
#endif
