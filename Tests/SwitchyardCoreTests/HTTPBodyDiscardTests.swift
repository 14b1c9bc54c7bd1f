import Switchyard
import Testing

/// Produces `chunks` chunks of `chunkSize` bytes and counts how many were pulled.
private final class ChunkSource: Sendable {
    private let state: Lock<(remaining: Int, pulled: Int)>
    private let chunkSize: Int

    init(chunks: Int, chunkSize: Int) {
        state = Lock((chunks, 0))
        self.chunkSize = chunkSize
    }

    func next() -> [UInt8]? {
        let more = state.withLock { state in
            guard state.remaining > 0 else { return false }
            state.remaining -= 1
            state.pulled += 1
            return true
        }
        return more ? [UInt8](repeating: 7, count: chunkSize) : nil
    }

    var pulled: Int { state.withLock { $0.pulled } }

    func body(length: HTTPBody.Length) -> HTTPBody {
        HTTPBody(AsyncStream<[UInt8]> { self.next() }, length: length)
    }
}

@Suite struct HTTPBodyDiscardTests {
    @Test func aSmallBodyOfKnownLengthIsDrained() async {
        let source = ChunkSource(chunks: 4, chunkSize: 100)
        await source.body(length: .known(400)).discard()
        #expect(source.pulled == 4)
    }

    @Test func largeOrUnknownBodiesAreNotRead() async {
        let large = ChunkSource(chunks: 100, chunkSize: 1 << 20)
        await large.body(length: .known(100 << 20)).discard()
        #expect(large.pulled == 0)
        let unknown = ChunkSource(chunks: 3, chunkSize: 10)
        await unknown.body(length: .unknown).discard()
        #expect(unknown.pulled == 0)
    }

    @Test func aBodyLongerThanItsDeclaredLengthStopsAtTheLimit() async {
        let source = ChunkSource(chunks: 1_000, chunkSize: 1_000)
        await source.body(length: .known(10)).discard(drainingUpTo: 10)
        #expect(source.pulled == 1)
    }
}
