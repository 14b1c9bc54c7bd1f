import HTTPTypes

/// The chunks of an encoded body, decoded as the reader pulls them.
///
/// Memory stays bounded whatever the compression ratio: each pull inflates at most
/// ``pieceSize`` bytes, and nothing is read ahead. The decoded bytes count against the size
/// limit, so a small body that inflates past it fails with ``SwitchyardError/Kind/responseTooLarge``
/// as soon as it crosses it. A stream that stops before its end, is corrupt, or is followed by
/// other bytes fails with ``SwitchyardError/Kind/protocolViolation``: never a short body.
struct DecodedChunks: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    /// The most decoded bytes one pull produces.
    static let pieceSize = 64 * 1024

    let base: HTTPBody
    /// In the order they were applied: the last is undone first.
    let codings: [ContentCoding]
    let limit: Int64?

    func makeAsyncIterator() -> Iterator {
        Iterator(source: base.makeAsyncIterator(), codings: codings, limit: limit)
    }

    /// Pulls encoded chunks and inflates them, layer by layer.
    struct Iterator: AsyncIteratorProtocol {
        /// One layer of decoding.
        private final class Stage {
            let coding: ContentCoding
            let inflater: Inflater
            var ended = false
            init(_ coding: ContentCoding) throws(SwitchyardError) {
                self.coding = coding
                self.inflater = try Inflater(coding)
            }
        }

        private var source: HTTPBody.AsyncIterator
        private let codings: [ContentCoding]
        private var stages: [Stage] = []
        private let limit: Int64?
        private var delivered: Int64 = 0
        private var finished = false

        init(source: HTTPBody.AsyncIterator, codings: [ContentCoding], limit: Int64?) {
            self.source = source
            self.codings = codings
            self.limit = limit
        }

        mutating func next() async throws -> ArraySlice<UInt8>? {
            guard !finished else { return nil }
            do {
                if stages.isEmpty { stages = try codings.reversed().map { coding throws(SwitchyardError) in try Stage(coding) } }
                guard let piece = try await pull(stages.count - 1) else {
                    finished = true
                    return nil
                }
                delivered += Int64(piece.count)
                if let limit, delivered > limit {
                    throw SwitchyardError(
                        .responseTooLarge,
                        "The response body decodes to more than the limit of \(limit)"
                            + " bytes (it is compressed; the limit counts decoded bytes); decoding stopped there."
                            + " Raise maxResponseBytes or stream the body.")
                }
                return piece
            } catch {
                finished = true
                stages = []
                throw error
            }
        }

        /// The next decoded piece of stage `index` (the last stage is the innermost coding's output).
        private mutating func pull(_ index: Int) async throws -> ArraySlice<UInt8>? {
            let stage = stages[index]
            while true {
                if stage.inflater.hasInput, !stage.ended {
                    var piece = [UInt8](repeating: 0, count: DecodedChunks.pieceSize)
                    let step = try piece.withUnsafeMutableBytes { output throws(SwitchyardError) in
                        try stage.inflater.inflate(into: output)
                    }
                    switch step {
                    case .produced(let count) where count > 0:
                        return piece[..<count]
                    case .produced, .needsInput:
                        break
                    case .streamEnded(let count):
                        stage.ended = true
                        let rest = stage.inflater.takeRemainingInput()
                        if !rest.isEmpty { try startNextMember(of: stage, with: rest) }
                        if count > 0 { return piece[..<count] }
                    }
                    continue
                }
                let encoded = index == 0 ? try await source.next() : try await pull(index - 1)
                guard let encoded else {
                    guard stage.ended, !stage.inflater.hasInput else {
                        throw SwitchyardError.protocolViolation(
                            "The \(stage.coding.name) body ended before its compressed"
                                + " stream did: it is truncated, and what was decoded was not delivered as complete.")
                    }
                    return nil
                }
                guard !encoded.isEmpty else { continue }
                if stage.ended { try startNextMember(of: stage, with: encoded) } else { stage.inflater.feed(encoded) }
            }
        }

        /// Bytes after a finished stream: another gzip member, or a protocol violation.
        private func startNextMember(of stage: Stage, with bytes: ArraySlice<UInt8>) throws(SwitchyardError) {
            guard stage.coding == .gzip, bytes.first == 0x1f else {
                throw .protocolViolation(
                    "The \(stage.coding.name) body has \(bytes.count)+ bytes after the end of its"
                        + " compressed stream; the response is malformed and was refused.")
            }
            stage.inflater.reset()
            stage.inflater.feed(bytes)
            stage.ended = false
        }
    }
}

extension ContentCoding {
    /// The coding's name as it appears in `Content-Encoding`.
    var name: String {
        switch self {
        case .gzip: "gzip"
        case .deflate: "deflate"
        }
    }
}

extension Response {
    /// This response with its body decoded according to its `Content-Encoding`.
    ///
    /// Transports that receive encoded bytes call this, so every one of them decodes the same
    /// codings the same way: `Content-Encoding` and the encoded `Content-Length` are removed from
    /// the head, the body is inflated as it is read, `limit` counts decoded bytes, and a corrupt or
    /// unfinished stream is a ``SwitchyardError/Kind/protocolViolation``. A coding Switchyard does
    /// not decode (e.g. `br`) leaves the response exactly as received.
    /// - Parameter limit: The most decoded bytes the reader may receive, or `nil` for no limit.
    /// - Returns: The response, decoded where needed.
    /// - Throws: ``SwitchyardError/Kind/protocolViolation`` for more codings than are decoded.
    package func decodingContent(limit: Int64?) throws(SwitchyardError) -> Response {
        guard let codings = try ContentCoding.codings(of: head.headerFields), !codings.isEmpty else { return self }
        var decoded = self
        decoded.head.headerFields[.contentEncoding] = nil
        decoded.head.headerFields[.contentLength] = nil
        if let body {
            decoded.body = HTTPBody(
                DecodedChunks(base: body, codings: codings, limit: limit),
                length: .unknown, replayability: body.replayability)
        }
        return decoded
    }
}
