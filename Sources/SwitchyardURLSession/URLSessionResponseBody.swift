import Switchyard

/// The body of a response URLSession is still receiving, pulled chunk by chunk.
///
/// Dropping the body before its end (the last reference to the sequence and its iterators goes
/// away) cancels the task, so an abandoned download stops on the wire instead of filling memory
/// or disk.
struct URLSessionResponseBody: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    private let owner: Owner

    init(exchange: URLSessionExchange) {
        self.owner = Owner(exchange: exchange)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let owner: Owner
        mutating func next() async throws -> ArraySlice<UInt8>? {
            try await owner.exchange.nextChunk()
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(owner: owner) }

    /// Cancels the exchange when the last reader lets go of the body.
    fileprivate final class Owner: Sendable {
        let exchange: URLSessionExchange
        init(exchange: URLSessionExchange) { self.exchange = exchange }
        deinit {
            if !exchange.isFinished { exchange.fail(.cancelled) }
        }
    }
}
