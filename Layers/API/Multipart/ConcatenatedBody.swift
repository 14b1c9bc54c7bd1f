import SwitchyardCore

/// Bodies sent one after another as one body: how a multipart form streams its files between
/// part headers held in memory.
struct ConcatenatedBody: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    let pieces: [HTTPBody]

    /// One body with the pieces' bytes in order: known length when every piece's is known,
    /// replayable when every piece is.
    static func body(of pieces: [HTTPBody]) -> HTTPBody {
        var total: Int64? = 0
        for piece in pieces {
            if case .known(let count) = piece.length, let sum = total { total = sum + count } else { total = nil }
        }
        let replayable = pieces.allSatisfy { $0.replayability == .replayable }
        return HTTPBody(
            ConcatenatedBody(pieces: pieces), length: total.map { .known($0) } ?? .unknown,
            replayability: replayable ? .replayable : .singleUse)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let pieces: [HTTPBody]
        var index = 0
        var current: HTTPBody.AsyncIterator?

        mutating func next() async throws -> ArraySlice<UInt8>? {
            while index < pieces.count {
                if current == nil { current = pieces[index].makeAsyncIterator() }
                if let chunk = try await current?.next() { return chunk }
                current = nil
                index += 1
            }
            return nil
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(pieces: pieces) }
}
