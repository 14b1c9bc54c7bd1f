import CZlib

/// One zlib inflate stream: encoded bytes in, decoded bytes out in bounded pieces.
///
/// Not thread-safe; owned by one body iterator. The `z_stream` lives on the heap because zlib
/// keeps a pointer to it and checks that it never moves.
final class Inflater {
    /// What one call to ``inflate(into:)`` achieved.
    enum Step {
        /// `count` decoded bytes were written; call again (input may remain).
        case produced(Int)
        /// All input was consumed without output; feed more.
        case needsInput
        /// The compressed stream ended cleanly; ``remainingInput`` holds any bytes after it.
        case streamEnded(produced: Int)
    }

    private let coding: ContentCoding
    private let stream: UnsafeMutablePointer<z_stream>
    private var input: [UInt8] = []
    private var inputOffset = 0
    private var producedAny = false
    private var triedRawDeflate = false

    init(_ coding: ContentCoding) throws(SwitchyardError) {
        self.coding = coding
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // gzip: 16 + 15 (gzip wrapper, 32 KiB window). deflate: 15 (zlib wrapper); see `retryAsRawDeflate`.
        guard czlib_inflate_init(stream, coding == .gzip ? 31 : 15) == Z_OK else {
            stream.deallocate()
            throw .transportFailed("zlib could not start a decoder (out of memory?).")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Whether encoded bytes are waiting to be inflated.
    var hasInput: Bool { inputOffset < input.count }

    /// The bytes after the end of the compressed stream, taken out of the inflater.
    func takeRemainingInput() -> ArraySlice<UInt8> {
        defer {
            input = []
            inputOffset = 0
        }
        return input[inputOffset...]
    }

    /// Queues encoded bytes (call only when ``hasInput`` is false).
    func feed(_ bytes: ArraySlice<UInt8>) {
        input = Array(bytes)
        inputOffset = 0
    }

    /// Inflates queued input into `output`.
    /// - Throws: ``SwitchyardError/Kind/protocolViolation`` when the data is not a valid stream.
    func inflate(into output: UnsafeMutableRawBufferPointer) throws(SwitchyardError) -> Step {
        let result: (code: Int32, produced: Int) = input.withUnsafeMutableBufferPointer { inputBuffer in
            let available = inputBuffer.count - inputOffset
            stream.pointee.next_in = inputBuffer.baseAddress.map { $0 + inputOffset }
            stream.pointee.avail_in = UInt32(clamping: available)
            stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = UInt32(clamping: output.count)
            let code = CZlib.inflate(stream, Z_NO_FLUSH)
            inputOffset += available - Int(stream.pointee.avail_in)
            return (code, output.count - Int(stream.pointee.avail_out))
        }
        if result.produced > 0 { producedAny = true }
        switch result.code {
        case Z_STREAM_END:
            return .streamEnded(produced: result.produced)
        case Z_OK:
            return result.produced > 0 || hasInput ? .produced(result.produced) : .needsInput
        case Z_BUF_ERROR:
            // No progress possible: either the output is full (never, we pass room) or input ran out.
            return result.produced > 0 ? .produced(result.produced) : .needsInput
        case Z_DATA_ERROR where coding == .deflate && !producedAny && !triedRawDeflate:
            try retryAsRawDeflate()
            return try inflate(into: output)
        default:
            let reason = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(result.code)"
            throw .protocolViolation(
                "The \(coding == .gzip ? "gzip" : "deflate") body is corrupt (\(reason));"
                    + " nothing after the damage was delivered.")
        }
    }

    /// Some servers send `deflate` without the zlib wrapper; like browsers and curl, try raw deflate
    /// when the first bytes are not a zlib header.
    private func retryAsRawDeflate() throws(SwitchyardError) {
        triedRawDeflate = true
        inputOffset = 0
        inflateEnd(stream)
        stream.initialize(to: z_stream())
        guard czlib_inflate_init(stream, -15) == Z_OK else {
            throw .transportFailed("zlib could not start a decoder (out of memory?).")
        }
    }

    /// Starts over for a following gzip member (RFC 1952 §2.2 allows several).
    func reset() {
        inflateReset(stream)
    }
}
