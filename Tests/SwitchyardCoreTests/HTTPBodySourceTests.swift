import Switchyard
import Synchronization
import Testing

/// A single-use body read from an ``HTTPBodySource`` object.
@Suite struct HTTPBodySourceTests {
    /// Hands out its parts in order, then `nil`; counts its reads and notes its own end.
    final class Parts: HTTPBodySource {
        private let parts: Lock<[String]>
        let reads = Atomic<Int>(0)
        let released: Lock<Bool>

        init(_ parts: [String], released: Lock<Bool> = Lock(false)) {
            self.parts = Lock(parts)
            self.released = released
        }

        func nextChunk() async throws -> ArraySlice<UInt8>? {
            reads.add(1, ordering: .relaxed)
            return parts.withLock { $0.isEmpty ? nil : ArraySlice($0.removeFirst().utf8) }
        }

        deinit { released.withLock { $0 = true } }
    }

    /// Fails on its first read.
    final class Failing: HTTPBodySource {
        func nextChunk() async throws -> ArraySlice<UInt8>? { throw SwitchyardError.timedOut("stalled") }
    }

    /// The example in `HTTPBodySource`'s documentation.
    final class ThreeTicks: HTTPBodySource {
        private let left = Atomic<Int>(3)

        func nextChunk() async throws -> ArraySlice<UInt8>? {  // `nil` ends the body
            left.subtract(1, ordering: .relaxed).newValue >= 0 ? ArraySlice("tick\n".utf8) : nil
        }
    }

    @Test func theDocumentedSourceTicksThreeTimes() async throws {
        let body = HTTPBody(streamingFrom: ThreeTicks(), length: .known(15))
        #expect(try await body.collect(upTo: 100) == Array("tick\ntick\ntick\n".utf8))
    }

    @Test func theChunksArriveInOrderAndTheBodyIsSingleUse() async throws {
        let source = Parts(["he", "", "llo"])
        let body = HTTPBody(streamingFrom: source, length: .known(5))
        #expect(body.length == .known(5))
        #expect(body.replayability == .singleUse)
        var chunks: [String] = []
        for try await chunk in body { chunks.append(String(decoding: chunk, as: UTF8.self)) }
        #expect(chunks == ["he", "", "llo"])
        #expect(body.isSpent)

        let error = await #expect(throws: SwitchyardError.self) { _ = try await body.collect(upTo: 100) }
        #expect(error?.kind == .invalidRequest)
        #expect(source.reads.load(ordering: .relaxed) == 4, "the refused iteration never reaches the source")
    }

    @Test func theIteratorAsksNoMoreOnceTheBodyEnded() async throws {
        let source = Parts(["x"])
        var iterator = HTTPBody(streamingFrom: source, length: .unknown).makeAsyncIterator()
        #expect(try await iterator.next() == ArraySlice("x".utf8))
        #expect(try await iterator.next() == nil)
        #expect(try await iterator.next() == nil)
        #expect(source.reads.load(ordering: .relaxed) == 2)
    }

    @Test func theSourceGoesWhenTheBodyAndItsIteratorAreDropped() async throws {
        let released = Lock(false)
        do {
            let body = HTTPBody(streamingFrom: Parts(["a", "b"], released: released), length: .unknown)
            var iterator = body.makeAsyncIterator()
            #expect(try await iterator.next() == ArraySlice("a".utf8))
            // Both are alive up to here (Swift may end a lifetime at its last use).
            withExtendedLifetime((body, iterator)) { #expect(released.withLock { $0 } == false) }
        }
        #expect(released.withLock { $0 }, "a reader's deinit is where it stops its I/O")
    }

    @Test func aSourcesErrorReachesTheReader() async throws {
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await HTTPBody(streamingFrom: Failing(), length: .unknown).collect(upTo: 100)
        }
        #expect(error?.kind == .timeout)
    }
}
