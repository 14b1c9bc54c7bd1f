#if canImport(CBrotli)
import CBrotli
public import SwitchyardCore
public import SwitchyardTransportKit

/// `br` (RFC 7932), decoded and encoded with the system brotli (`libbrotlidec`, `libbrotlienc`).
///
/// Decoding memory is bounded by brotli's window (at most 16 MiB, as the format's standard mode
/// allows; the large-window extension is refused) plus one 64 KiB output piece per pull. A `br`
/// body is one stream: bytes after its end are a `protocolViolation`.
public struct BrotliCodec: ContentCodec {
    /// brotli's quality for request bodies: 5, a good ratio at streaming speed (11 is the slowest).
    public static let defaultLevel = 5

    /// Creates the codec.
    public init() {}

    /// `br`.
    public var name: String { "br" }

    /// A brotli stream decoder.
    /// - Returns: The decoder.
    /// - Throws: `transport` when brotli cannot start (out of memory).
    public func makeDecoder() throws(SwitchyardError) -> any ContentDecoder { try BrotliStreamDecoder() }

    /// A brotli stream encoder.
    /// - Parameter level: brotli's quality, clamped to 0 … 11 (default ``defaultLevel``).
    /// - Returns: The encoder.
    /// - Throws: `transport` when brotli cannot start (out of memory).
    public func makeEncoder(level: Int?) throws(SwitchyardError) -> any ContentEncoder {
        try BrotliStreamEncoder(quality: min(11, max(0, level ?? Self.defaultLevel)))
    }
}

extension ContentCodec where Self == BrotliCodec {
    /// `br` (`SwitchyardCompression`, the system brotli).
    public static var brotli: BrotliCodec { BrotliCodec() }
}

/// One brotli decoder state; owned by one body iterator.
final class BrotliStreamDecoder: ContentDecoder {
    private let state: OpaquePointer
    private var finished = false

    init() throws(SwitchyardError) {
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else {
            throw .transportFailed("brotli could not start a decoder (out of memory?).")
        }
        self.state = state
    }

    deinit { BrotliDecoderDestroyInstance(state) }

    func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
        throws(SwitchyardError) -> ContentDecodingStep
    {
        if finished {
            guard input.isEmpty else {
                throw .protocolViolation(
                    "The br body has \(input.count)+ bytes after the end of its compressed stream;"
                        + " the response is malformed and was refused.")
            }
            return ContentDecodingStep(consumed: 0, produced: 0, isComplete: true)
        }
        var empty: UInt8 = 0
        return try withUnsafeMutablePointer(to: &empty) { placeholder throws(SwitchyardError) in
            var nextIn: UnsafePointer<UInt8>? = input.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(placeholder)
            var availableIn = input.count
            guard let outStart = output.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
                return ContentDecodingStep(consumed: 0, produced: 0, isComplete: false)
            }
            var nextOut: UnsafeMutablePointer<UInt8>? = outStart
            var availableOut = output.count
            let result = BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
            let step = ContentDecodingStep(
                consumed: input.count - availableIn, produced: output.count - availableOut,
                isComplete: result == BROTLI_DECODER_RESULT_SUCCESS)
            switch result {
            case BROTLI_DECODER_RESULT_SUCCESS:
                finished = true
                return step
            case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT, BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
                return step
            default:
                let reason = BrotliDecoderErrorString(BrotliDecoderGetErrorCode(state)).map { String(cString: $0) }
                throw .protocolViolation(
                    "The br body is corrupt (\(reason ?? "brotli error")); nothing after the damage was delivered.")
            }
        }
    }
}

/// One brotli encoder state; owned by one request body iteration.
final class BrotliStreamEncoder: ContentEncoder {
    private let state: OpaquePointer
    private var output = [UInt8](repeating: 0, count: 64 * 1024)

    init(quality: Int) throws(SwitchyardError) {
        guard let state = BrotliEncoderCreateInstance(nil, nil, nil) else {
            throw .transportFailed("brotli could not start an encoder (out of memory?).")
        }
        self.state = state
        BrotliEncoderSetParameter(state, BROTLI_PARAM_QUALITY, UInt32(quality))
    }

    deinit { BrotliEncoderDestroyInstance(state) }

    func encode(_ input: ArraySlice<UInt8>, finish: Bool) throws(SwitchyardError) -> [UInt8] {
        var produced: [UInt8] = []
        let operation = finish ? BROTLI_OPERATION_FINISH : BROTLI_OPERATION_PROCESS
        let succeeded = input.withUnsafeBufferPointer { inputBuffer in
            var empty: UInt8 = 0
            return withUnsafeMutablePointer(to: &empty) { placeholder in
                var nextIn: UnsafePointer<UInt8>? = inputBuffer.baseAddress ?? UnsafePointer(placeholder)
                var availableIn = inputBuffer.count
                while true {
                    let outputCount = output.count
                    var availableOut = outputCount
                    let ok = output.withUnsafeMutableBufferPointer { outputBuffer in
                        var nextOut = outputBuffer.baseAddress
                        return BrotliEncoderCompressStream(
                            state, operation, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                    }
                    guard ok != 0 else { return false }
                    produced.append(contentsOf: output[0..<(outputCount - availableOut)])
                    let more = availableIn > 0 || BrotliEncoderHasMoreOutput(state) != 0
                    if !more && (!finish || BrotliEncoderIsFinished(state) != 0) { return true }
                }
            }
        }
        guard succeeded else { throw .transportFailed("brotli failed to compress the request body.") }
        return produced
    }
}
#endif
