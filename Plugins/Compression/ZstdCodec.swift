#if canImport(CZstd)
import CZstd
public import SwitchyardCore
public import SwitchyardTransportKit

/// `zstd` (RFC 8878), decoded and encoded with the system zstd (`libzstd`).
///
/// Decoding memory is bounded: frames that ask for a window above ``maxWindowLog`` (8 MiB, the
/// limit RFC 8878 §3.1.1.1.2 sets for HTTP) are refused as a
/// `protocolViolation` before any buffer is allocated for them,
/// and each pull writes at most one 64 KiB piece. Concatenated frames (and skippable frames) are one
/// body, as the format allows; any other bytes after a frame are a protocol violation.
public struct ZstdCodec: ContentCodec {
    /// zstd's default level (3): fast, with a ratio better than gzip's level 6.
    public static let defaultLevel = 3
    /// The largest window a frame may use: 2^23 = 8 MiB (RFC 8878 §3.1.1.1.2 for `Content-Encoding`).
    public static let maxWindowLog: Int32 = 23

    /// Creates the codec.
    public init() {}

    /// `zstd`.
    public var name: String { "zstd" }

    /// A zstd stream decoder (window at most 8 MiB).
    /// - Returns: The decoder.
    /// - Throws: `transport` when zstd cannot start (out of memory).
    public func makeDecoder() throws(SwitchyardError) -> any ContentDecoder { try ZstdStreamDecoder() }

    /// A zstd stream encoder.
    /// - Parameter level: zstd's level, clamped to 1 … 19 (default ``defaultLevel``), whose windows
    ///   stay within the 8 MiB an HTTP recipient must accept.
    /// - Returns: The encoder.
    /// - Throws: `transport` when zstd cannot start (out of memory).
    public func makeEncoder(level: Int?) throws(SwitchyardError) -> any ContentEncoder {
        try ZstdStreamEncoder(level: Int32(min(19, max(1, level ?? Self.defaultLevel))))
    }
}

extension ContentCodec where Self == ZstdCodec {
    /// `zstd` (`SwitchyardCompression`, the system zstd).
    public static var zstd: ZstdCodec { ZstdCodec() }
}

/// One zstd decompression context; owned by one body iterator.
final class ZstdStreamDecoder: ContentDecoder {
    private let context: OpaquePointer
    /// A frame ended and nothing of the next one has been read.
    private var atFrameEnd = false

    init() throws(SwitchyardError) {
        guard let context = ZSTD_createDCtx() else {
            throw .transportFailed("zstd could not start a decoder (out of memory?).")
        }
        self.context = context
        ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, ZstdCodec.maxWindowLog)
    }

    deinit { ZSTD_freeDCtx(context) }

    func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
        throws(SwitchyardError) -> ContentDecodingStep
    {
        // At a frame's end with no more input there is nothing to flush; asking zstd would start a
        // next frame's header and report the stream incomplete.
        if input.isEmpty, atFrameEnd { return ContentDecodingStep(consumed: 0, produced: 0, isComplete: true) }
        var inBuffer = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
        var outBuffer = ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: 0)
        let result = ZSTD_decompressStream(context, &outBuffer, &inBuffer)
        if ZSTD_isError(result) != 0 {
            let reason = String(cString: ZSTD_getErrorName(result))
            throw .protocolViolation("The zstd body is corrupt (\(reason)); nothing after the damage was delivered.")
        }
        // 0: a frame is completely decoded and flushed.
        atFrameEnd = result == 0
        return ContentDecodingStep(consumed: inBuffer.pos, produced: outBuffer.pos, isComplete: atFrameEnd)
    }
}

/// One zstd compression context writing one frame; owned by one request body iteration.
final class ZstdStreamEncoder: ContentEncoder {
    private let context: OpaquePointer
    private var output = [UInt8](repeating: 0, count: 64 * 1024)

    init(level: Int32) throws(SwitchyardError) {
        guard let context = ZSTD_createCCtx() else {
            throw .transportFailed("zstd could not start an encoder (out of memory?).")
        }
        self.context = context
        ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level)
        ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)
    }

    deinit { ZSTD_freeCCtx(context) }

    func encode(_ input: ArraySlice<UInt8>, finish: Bool) throws(SwitchyardError) -> [UInt8] {
        var produced: [UInt8] = []
        let directive = finish ? ZSTD_e_end : ZSTD_e_continue
        let failure: Int? = input.withUnsafeBytes { inputBytes in
            var inBuffer = ZSTD_inBuffer(src: inputBytes.baseAddress, size: inputBytes.count, pos: 0)
            while true {
                let outputCount = output.count
                var written = 0
                let remaining = output.withUnsafeMutableBytes { outputBytes in
                    var outBuffer = ZSTD_outBuffer(dst: outputBytes.baseAddress, size: outputCount, pos: 0)
                    defer { written = outBuffer.pos }
                    return ZSTD_compressStream2(context, &outBuffer, &inBuffer, directive)
                }
                if ZSTD_isError(remaining) != 0 { return remaining }
                produced.append(contentsOf: output[0..<written])
                // Done when the input is used up and, when finishing, the frame is fully written (0).
                if inBuffer.pos == inBuffer.size, !finish || remaining == 0 { return nil }
            }
        }
        if let failure {
            throw .transportFailed(
                "zstd failed to compress the request body (\(String(cString: ZSTD_getErrorName(failure)))).")
        }
        return produced
    }
}
#endif
