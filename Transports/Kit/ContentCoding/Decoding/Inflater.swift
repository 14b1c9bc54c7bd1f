import CZlib
public import SwitchyardCore

/// One zlib inflate stream decoding `gzip` or `deflate`: the built-in ``ContentDecoder``.
///
/// Not thread-safe; owned by one body iterator. The `z_stream` lives on the heap because zlib
/// keeps a pointer to it and checks that it never moves. Concatenated gzip members (RFC 1952 §2.2)
/// are one body; any other bytes after the end of the stream are a protocol violation.
final class Inflater: ContentDecoder {
    private let isGzip: Bool
    private let stream: UnsafeMutablePointer<z_stream>
    private var ended = false
    private var producedAny = false
    private var triedRawDeflate = false

    /// Starts a decoder; `gzip` wrapper or, when `false`, the zlib wrapper of `deflate`.
    init(gzip: Bool) throws(SwitchyardError) {
        self.isGzip = gzip
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // gzip: 16 + 15 (gzip wrapper, 32 KiB window). deflate: 15 (zlib wrapper); see `retryAsRawDeflate`.
        guard czlib_inflate_init(stream, gzip ? 31 : 15) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw .transportFailed("zlib could not start a decoder (out of memory?).")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    private var name: String { isGzip ? "gzip" : "deflate" }

    func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
        throws(SwitchyardError) -> ContentDecodingStep
    {
        if ended {
            guard !input.isEmpty else { return ContentDecodingStep(consumed: 0, produced: 0, isComplete: true) }
            guard isGzip, input.first == 0x1f else {
                throw .protocolViolation(
                    "The \(name) body has \(input.count)+ bytes after the end of its"
                        + " compressed stream; the response is malformed and was refused.")
            }
            inflateReset(stream)  // the next gzip member
            ended = false
        }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = UInt32(clamping: input.count)
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = UInt32(clamping: output.count)
        let code = CZlib.inflate(stream, Z_NO_FLUSH)
        let consumed = min(input.count, Int(UInt32(clamping: input.count) - stream.pointee.avail_in))
        let produced = Int(UInt32(clamping: output.count) - stream.pointee.avail_out)
        stream.pointee.next_in = nil
        stream.pointee.next_out = nil
        if produced > 0 { producedAny = true }
        switch code {
        case Z_STREAM_END:
            ended = true
            return ContentDecodingStep(consumed: consumed, produced: produced, isComplete: true)
        case Z_OK, Z_BUF_ERROR:  // Z_BUF_ERROR: no progress possible, the input ran out
            return ContentDecodingStep(consumed: consumed, produced: produced, isComplete: false)
        case Z_DATA_ERROR where !isGzip && !producedAny && !triedRawDeflate:
            try retryAsRawDeflate()
            return try decode(input, into: output)
        default:
            let reason = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(code)"
            throw .protocolViolation("The \(name) body is corrupt (\(reason)); nothing after the damage was delivered.")
        }
    }

    /// Some servers send `deflate` without the zlib wrapper; like browsers and curl, try raw deflate
    /// when the first bytes are not a zlib header.
    private func retryAsRawDeflate() throws(SwitchyardError) {
        triedRawDeflate = true
        inflateEnd(stream)
        stream.initialize(to: z_stream())
        guard czlib_inflate_init(stream, -15) == Z_OK else {
            throw .transportFailed("zlib could not start a decoder (out of memory?).")
        }
    }
}

/// `gzip` (and `x-gzip`, RFC 1952), decoded and encoded with the system zlib; built in.
public struct GzipCodec: ContentCodec {
    /// zlib's default level (6): a good ratio at a fraction of level 9's time.
    public static let defaultLevel = 6

    /// Creates the codec.
    public init() {}

    /// `gzip`.
    public var name: String { "gzip" }
    /// `x-gzip`.
    public var aliases: [String] { ["x-gzip"] }

    /// A zlib inflater for a gzip stream (several members are one body).
    /// - Returns: The decoder.
    /// - Throws: ``SwitchyardError/Kind/transport`` when zlib cannot start (out of memory).
    public func makeDecoder() throws(SwitchyardError) -> any ContentDecoder { try Inflater(gzip: true) }

    /// A zlib deflater writing gzip.
    /// - Parameter level: zlib's level, clamped to 1 … 9 (default ``defaultLevel``).
    /// - Returns: The encoder.
    /// - Throws: ``SwitchyardError/Kind/transport`` when zlib cannot start (out of memory).
    public func makeEncoder(level: Int?) throws(SwitchyardError) -> any ContentEncoder {
        try Deflater(level: Int32(min(9, max(1, level ?? Self.defaultLevel))))
    }
}

/// `deflate`: a zlib stream (RFC 1950), or a raw deflate stream as some servers send; decoded with
/// the system zlib; built in.
public struct DeflateCodec: ContentCodec {
    /// Creates the codec.
    public init() {}

    /// `deflate`.
    public var name: String { "deflate" }

    /// A zlib inflater (raw deflate accepted when the zlib header is missing).
    /// - Returns: The decoder.
    /// - Throws: ``SwitchyardError/Kind/transport`` when zlib cannot start (out of memory).
    public func makeDecoder() throws(SwitchyardError) -> any ContentDecoder { try Inflater(gzip: false) }
}

extension ContentCodec where Self == GzipCodec {
    /// `gzip`, built in.
    public static var gzip: GzipCodec { GzipCodec() }
}

extension ContentCodec where Self == DeflateCodec {
    /// `deflate`, built in.
    public static var deflate: DeflateCodec { DeflateCodec() }
}
