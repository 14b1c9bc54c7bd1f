import Switchyard

/// The body of a response that libcurl is still receiving, pulled chunk by chunk.
///
/// Dropping the body before its end (the last reference to the sequence and its iterators goes
/// away) cancels the transfer, so an abandoned download stops on the wire instead of filling memory.
struct CurlResponseBody: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    private let owner: Owner

    init(transfer: CurlTransfer) {
        self.owner = Owner(transfer: transfer)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let owner: Owner
        mutating func next() async throws -> ArraySlice<UInt8>? {
            try await owner.transfer.nextChunk()
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(owner: owner) }

    /// Cancels the transfer when the last reader lets go of the body.
    fileprivate final class Owner: Sendable {
        let transfer: CurlTransfer
        init(transfer: CurlTransfer) { self.transfer = transfer }
        deinit {
            if !transfer.isFinished {
                transfer.cancel(.cancelled)
            }
        }
    }
}
