public import SwitchyardCore

extension HTTPBody {
    /// This body compressed as it is read: each chunk pulled from the result pulls chunks of this
    /// body until the encoder releases compressed bytes, so memory stays constant whatever the
    /// body's size (the encoder's state plus the compressed bytes of one source chunk).
    ///
    /// The result's length is unknown; it is replayable exactly when this body is (every iteration
    /// compresses a new iteration of this body with a new encoder).
    /// - Parameters:
    ///   - codec: The coding, e.g. ``GzipCodec``.
    ///   - level: The codec's compression level, or `nil` for its default.
    ///   - finished: Called at the end of each complete iteration with the plain and compressed sizes.
    /// - Returns: The compressed body.
    ///
    /// A plugin that compresses bodies on their way out builds on it (`SwitchyardCompression`'s
    /// request compression does): `request.body = body.encoded(with: GzipCodec(), level: 6) { _, _ in }`.
    public func encoded(
        with codec: any ContentCodec, level: Int?,
        finished: @escaping @Sendable (_ plain: Int64, _ compressed: Int64) -> Void
    ) -> HTTPBody {
        HTTPBody(
            producing: { [self] in
                let encoder = BodyEncoder(source: makeAsyncIterator(), codec: codec, level: level, finished: finished)
                return { try await encoder.next() }
            }, length: .unknown, replayability: replayability)
    }
}

/// Pulls plain chunks and hands out compressed ones; owned by one iteration.
private final class BodyEncoder {
    private var source: HTTPBody.AsyncIterator
    private let codec: any ContentCodec
    private let level: Int?
    private let finished: @Sendable (Int64, Int64) -> Void
    private var encoder: (any ContentEncoder)?
    private var plainBytes: Int64 = 0
    private var compressedBytes: Int64 = 0
    private var ended = false

    init(
        source: HTTPBody.AsyncIterator, codec: any ContentCodec, level: Int?,
        finished: @escaping @Sendable (Int64, Int64) -> Void
    ) {
        self.source = source
        self.codec = codec
        self.level = level
        self.finished = finished
    }

    func next() async throws -> ArraySlice<UInt8>? {
        guard !ended else { return nil }
        let encoder = try self.encoder ?? codec.makeEncoder(level: level)
        self.encoder = encoder
        while true {
            let chunk = try await source.next()
            let output = try encoder.encode(chunk ?? [], finish: chunk == nil)
            plainBytes += Int64(chunk?.count ?? 0)
            compressedBytes += Int64(output.count)
            if chunk == nil {
                ended = true
                self.encoder = nil
                finished(plainBytes, compressedBytes)
                return output.isEmpty ? nil : output[...]
            }
            if !output.isEmpty { return output[...] }
        }
    }
}
