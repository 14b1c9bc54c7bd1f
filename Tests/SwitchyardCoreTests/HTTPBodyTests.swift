import Switchyard
import Testing

@Suite struct HTTPBodyTests {
    private static func chunks(_ parts: [String]) -> AsyncStream<ArraySlice<UInt8>> {
        AsyncStream { continuation in
            for part in parts { continuation.yield(ArraySlice(part.utf8)) }
            continuation.finish()
        }
    }

    @Test func bytesBodiesAreReplayableWithKnownLength() async throws {
        let body = HTTPBody("hello")
        #expect(body.length == .known(5))
        #expect(body.replayability == .replayable)
        #expect(try await body.collect(upTo: 100) == Array("hello".utf8))
        #expect(try await body.collect(upTo: 100) == Array("hello".utf8))
    }

    @Test func aSingleUseStreamRefusesASecondIteration() async throws {
        let body = HTTPBody(Self.chunks(["a", "b"]))
        #expect(try await body.collect(upTo: 100) == Array("ab".utf8))
        let error = await #expect(throws: SwitchyardError.self) { _ = try await body.collect(upTo: 100) }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("single-use") == true)
    }

    @Test func collectStopsAtTheLimit() async throws {
        let streamed = HTTPBody(Self.chunks(["12345", "67890"]))
        let error = await #expect(throws: SwitchyardError.self) { _ = try await streamed.collect(upTo: 7) }
        #expect(error?.kind == .responseTooLarge)

        let declared = HTTPBody(Self.chunks(["x"]), length: .known(1_000))
        let declaredError = await #expect(throws: SwitchyardError.self) { _ = try await declared.collect(upTo: 10) }
        #expect(declaredError?.kind == .responseTooLarge)
    }

    @Test func emptyBodyYieldsNoChunks() async throws {
        var count = 0
        for try await _ in HTTPBody([]) { count += 1 }
        #expect(count == 0)
    }
}
