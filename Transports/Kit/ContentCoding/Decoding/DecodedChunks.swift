import HTTPTypes
package import SwitchyardCore

/// The chunks of an encoded body, decoded as the reader pulls them.
///
/// Memory stays bounded whatever the compression ratio: each pull decodes at most
/// ``pieceSize`` bytes per layer, and nothing is read ahead. The decoded bytes count against the
/// size limit, so a small body that expands past it fails with ``SwitchyardError/Kind/responseTooLarge``
/// as soon as it crosses it. A stream that stops before its end, is corrupt, or is followed by
/// other bytes fails with ``SwitchyardError/Kind/protocolViolation``: never a short body. The same
/// driver runs every ``ContentDecoder``, built in or from a plugin.
struct DecodedChunks: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    /// The most decoded bytes one pull produces.
    static let pieceSize = 64 * 1024

    let base: HTTPBody
    /// In the order they were applied: the last is undone first.
    let codecs: [any ContentCodec]
    let limit: Int64?

    func makeAsyncIterator() -> Iterator {
        Iterator(source: base.makeAsyncIterator(), codecs: codecs, limit: limit)
    }

    /// Pulls encoded chunks and decodes them, layer by layer.
    struct Iterator: AsyncIteratorProtocol {
        /// One layer of decoding: its decoder and the encoded bytes it has not consumed yet.
        private final class Stage {
            let name: String
            let decoder: any ContentDecoder
            var input: ArraySlice<UInt8> = []
            var isComplete = false
            /// The last call filled the output: the decoder may hold more decoded bytes.
            var mayHoldOutput = false
            init(_ codec: any ContentCodec) throws(SwitchyardError) {
                self.name = codec.name
                self.decoder = try codec.makeDecoder()
            }
        }

        private var source: HTTPBody.AsyncIterator
        private let codecs: [any ContentCodec]
        private var stages: [Stage] = []
        private let limit: Int64?
        private var delivered: Int64 = 0
        private var finished = false

        init(source: HTTPBody.AsyncIterator, codecs: [any ContentCodec], limit: Int64?) {
            self.source = source
            self.codecs = codecs
            self.limit = limit
        }

        mutating func next() async throws -> ArraySlice<UInt8>? {
            guard !finished else { return nil }
            do {
                if stages.isEmpty { stages = try codecs.reversed().map { codec throws(SwitchyardError) in try Stage(codec) } }
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
                if !stage.input.isEmpty || stage.mayHoldOutput {
                    var piece = [UInt8](repeating: 0, count: DecodedChunks.pieceSize)
                    let step = try stage.input.withUnsafeBytes { input in
                        try piece.withUnsafeMutableBytes { output in try stage.decoder.decode(input, into: output) }
                    }
                    let hadInput = !stage.input.isEmpty
                    stage.input = stage.input.dropFirst(step.consumed)
                    stage.isComplete = step.isComplete
                    stage.mayHoldOutput = step.produced == piece.count
                    if step.produced > 0 { return piece[..<step.produced] }
                    if hadInput, step.consumed == 0 {
                        throw SwitchyardError.protocolViolation(
                            "The \(stage.name) decoder made no progress on the body; it was refused.")
                    }
                    continue
                }
                let encoded = index == 0 ? try await source.next() : try await pull(index - 1)
                guard let encoded else {
                    guard stage.isComplete else {
                        throw SwitchyardError.protocolViolation(
                            "The \(stage.name) body ended before its compressed"
                                + " stream did: it is truncated, and what was decoded was not delivered as complete.")
                    }
                    return nil
                }
                stage.input = encoded
            }
        }
    }
}

extension Response {
    /// This response with its body decoded according to its `Content-Encoding`.
    ///
    /// Transports that receive encoded bytes call this, so every one of them decodes the same
    /// codings the same way: `Content-Encoding` and the encoded `Content-Length` are removed from
    /// the head, the body is decoded as it is read, `limit` counts decoded bytes, and a corrupt or
    /// unfinished stream is a ``SwitchyardError/Kind/protocolViolation``. A coding not in
    /// `decoders` (e.g. `br` without the plugin that adds it) leaves the response exactly as received.
    /// - Parameters:
    ///   - limit: The most decoded bytes the reader may receive, or `nil` for no limit.
    ///   - decoders: The codings to decode (the request's ``RequestOptions/contentDecoders``).
    /// - Returns: The response, decoded where needed.
    /// - Throws: ``SwitchyardError/Kind/protocolViolation`` for more codings than are decoded.
    package func decodingContent(limit: Int64?, decoders: ContentDecoders = .builtIn) throws(SwitchyardError) -> Response {
        guard let codecs = try decoders.codecs(of: head.headerFields), !codecs.isEmpty else { return self }
        var decoded = self
        decoded.head.headerFields[.contentEncoding] = nil
        decoded.head.headerFields[.contentLength] = nil
        if let body {
            decoded.body = HTTPBody(
                DecodedChunks(base: body, codecs: codecs, limit: limit),
                length: .unknown, replayability: body.replayability)
        }
        return decoded
    }
}
