import SwitchyardCore

extension HTTPBody {
    /// A body that yields `bytes` and then, instead of ending, throws `error`: replays a body that
    /// failed (or was abandoned) part-way through its recording.
    static func endingInError(_ bytes: [UInt8], error: SwitchyardError) -> HTTPBody {
        HTTPBody(FailingChunks(bytes: bytes, error: error))
    }
}

/// Yields its bytes in one chunk (if any), then throws.
private struct FailingChunks: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    let bytes: [UInt8]
    let error: SwitchyardError

    struct AsyncIterator: AsyncIteratorProtocol {
        var pending: ArraySlice<UInt8>?
        let error: SwitchyardError

        mutating func next() async throws -> ArraySlice<UInt8>? {
            if let chunk = pending {
                pending = nil
                if !chunk.isEmpty { return chunk }
            }
            throw error
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(pending: bytes[...], error: error)
    }
}
