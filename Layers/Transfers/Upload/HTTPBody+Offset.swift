import SwitchyardCore

extension HTTPBody {
    /// The body from byte `offset` on: the same bytes without the first `offset`, with the same
    /// replayability. Memory is sliced; a stream is read from its start and its first bytes skipped.
    func dropping(first offset: Int64) -> HTTPBody {
        guard offset > 0 else { return self }
        if let bytes = bufferedBytes { return HTTPBody(bytes.dropFirst(Int(clamping: offset))) }
        let rest: Length = if case .known(let count) = length { .known(Swift.max(0, count - offset)) } else { .unknown }
        return HTTPBody(
            producing: {
                var iterator = self.makeAsyncIterator()
                var skip = offset
                return {
                    while skip > 0 {
                        guard let chunk = try await iterator.next() else { return nil }
                        if Int64(chunk.count) <= skip {
                            skip -= Int64(chunk.count)
                            continue
                        }
                        let tail = chunk.dropFirst(Int(skip))
                        skip = 0
                        return tail
                    }
                    return try await iterator.next()
                }
            }, length: rest, replayability: replayability)
    }
}
