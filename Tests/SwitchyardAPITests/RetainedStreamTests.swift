import Switchyard
import Testing

@testable import SwitchyardTransfers

/// The kept bytes of a single-use upload body: a newer body continues from any offset within them
/// (then from the stream), an older body ends, and an offset outside them is a typed error.
@Suite struct RetainedStreamTests {
    /// Ten chunks of 100 bytes; byte `i` is `i % 251`.
    static func stream() -> (HTTPBody, [UInt8]) {
        let bytes = (0..<1000).map { UInt8($0 % 251) }
        let chunks = AsyncStream<ArraySlice<UInt8>> { continuation in
            for start in stride(from: 0, to: 1000, by: 100) { continuation.yield(bytes[start..<(start + 100)]) }
            continuation.finish()
        }
        return (HTTPBody(chunks, length: .known(1000)), bytes)
    }

    /// Reads `count` chunks of `body` (all with `nil`), concatenated.
    static func read(_ body: HTTPBody, chunks count: Int? = nil) async throws -> [UInt8] {
        var iterator = body.makeAsyncIterator()
        var bytes: [UInt8] = []
        var read = 0
        while count.map({ read < $0 }) ?? true, let chunk = try await iterator.next() {
            bytes += chunk
            read += 1
        }
        return bytes
    }

    @Test func aNewerBodyContinuesFromAnOffsetWithinTheKeptBytes() async throws {
        let (body, bytes) = Self.stream()
        let kept = RetainedStream(body, capacity: 250)
        let first = try await kept.body(from: 0)
        var iterator = first.makeAsyncIterator()
        var sent: [UInt8] = []
        for _ in 0..<6 { sent += try #require(try await iterator.next()) }
        #expect(sent == Array(bytes[0..<600]))

        // 600 bytes read, at least the last 250 kept: 450 is within them, 100 is not.
        let error = await #expect(throws: SwitchyardError.self) { _ = try await kept.body(from: 100) }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("keeps only bytes") == true)
        let resumed = try await kept.body(from: 450)
        #expect(resumed.length == .known(550))
        #expect(try await iterator.next() == nil)  // the older body ends
        #expect(try await Self.read(resumed) == Array(bytes[450..<1000]))
    }

    @Test func anOffsetBeyondWhatWasReadIsRefused() async throws {
        let (body, _) = Self.stream()
        let kept = RetainedStream(body, capacity: 1 << 20)
        _ = try await Self.read(try await kept.body(from: 0), chunks: 2)
        let error = await #expect(throws: SwitchyardError.self) { _ = try await kept.body(from: 201) }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("keeps only bytes") == true)
        #expect(try await Self.read(try await kept.body(from: 200)).count == 800)
    }
}
