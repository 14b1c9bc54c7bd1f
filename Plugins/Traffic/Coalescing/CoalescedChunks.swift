import SwitchyardCore

/// One caller's body of a shared exchange: the chunks the fan-out put in its buffer.
///
/// Dropping the body (the sequence and its iterators) takes the caller out of the exchange; the
/// last caller to leave cancels the shared transfer.
struct CoalescedChunks: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    let owner: Owner

    init(exchange: SharedExchange, token: Int) {
        owner = Owner(exchange: exchange, token: token)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let owner: Owner

        mutating func next() async throws -> ArraySlice<UInt8>? {
            try await owner.exchange.nextChunk(for: owner.token)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(owner: owner) }

    /// Leaves the exchange when the last reference to the body goes away.
    final class Owner: Sendable {
        let exchange: SharedExchange
        let token: Int

        init(exchange: SharedExchange, token: Int) {
            self.exchange = exchange
            self.token = token
        }

        deinit { exchange.leave(token) }
    }
}
