extension HTTPBody {
    /// This body gzip-compressed as it is read: each chunk pulled from the result pulls chunks of
    /// this body until zlib releases compressed bytes, so memory stays constant whatever the body's
    /// size (zlib's state plus the compressed bytes of one source chunk).
    ///
    /// The result's length is unknown; it is replayable exactly when this body is (every iteration
    /// compresses a new iteration of this body).
    /// - Parameters:
    ///   - level: zlib's compression level, 1 … 9.
    ///   - finished: Called at the end of each complete iteration with the plain and compressed sizes.
    /// - Returns: The compressed body.
    func gzipped(level: Int32, finished: @escaping @Sendable (_ plain: Int64, _ compressed: Int64) -> Void) -> HTTPBody {
        HTTPBody(
            producing: { [self] in
                let encoder = GzipEncoder(source: makeAsyncIterator(), level: level, finished: finished)
                return { try await encoder.next() }
            }, length: .unknown, replayability: replayability)
    }
}

/// Pulls plain chunks and hands out compressed ones; owned by one iteration.
private final class GzipEncoder {
    private var source: HTTPBody.AsyncIterator
    private let level: Int32
    private let finished: @Sendable (Int64, Int64) -> Void
    private var deflater: Deflater?
    private var plainBytes: Int64 = 0
    private var compressedBytes: Int64 = 0
    private var ended = false

    init(source: HTTPBody.AsyncIterator, level: Int32, finished: @escaping @Sendable (Int64, Int64) -> Void) {
        self.source = source
        self.level = level
        self.finished = finished
    }

    func next() async throws -> ArraySlice<UInt8>? {
        guard !ended else { return nil }
        let deflater = try self.deflater ?? Deflater(level: level)
        self.deflater = deflater
        while true {
            let chunk = try await source.next()
            let output = try deflater.deflate(chunk ?? [], finish: chunk == nil)
            plainBytes += Int64(chunk?.count ?? 0)
            compressedBytes += Int64(output.count)
            if chunk == nil {
                ended = true
                self.deflater = nil
                finished(plainBytes, compressedBytes)
                return output.isEmpty ? nil : output[...]
            }
            if !output.isEmpty { return output[...] }
        }
    }
}
