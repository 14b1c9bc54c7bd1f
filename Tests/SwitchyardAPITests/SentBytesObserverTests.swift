import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardTransfers
import Testing

/// The counts a ``SentBytesObserver`` receives, in order, as a stream.
private func sentCounts() -> (observer: SentBytesObserver, counts: AsyncStream<Int64>, end: @Sendable () -> Void) {
    let (counts, continuation) = AsyncStream.makeStream(of: Int64.self)
    return (SentBytesObserver { continuation.yield($0) }, counts, { continuation.finish() })
}

@Suite(.timeLimit(.minutes(3))) struct SentBytesObserverTests {
    /// The server stops reading the body right after the head: a transport that counted bytes read
    /// from the body (or collected before sending, as URLSession does on Linux) would report the
    /// whole body while the server holds; the wire's count stays below it until the server reads.
    @Test(arguments: TransportKind.allCases)
    func sentBytesStayBelowTheTotalWhileTheServerHoldsItsRead(kind: TransportKind) async throws {
        try await withLoopbackClient(kind, configuration: ClientConfiguration()) { client, server in
            let count = 48 << 20  // far beyond the socket buffers of both ends
            let path = try makeTemporaryDirectory() + "/held-upload.bin"
            try writePatternFile(at: path, count: count)
            let (observer, counts, end) = sentCounts()
            var request = try Request(
                method: .post, url: server.url("/upload/sink/held-\(kind)?hold=1"), body: .file(atPath: path))
            request.options.sentBytesObserver = observer
            let sending = Task { try await client.send(request) }

            #expect(await eventually { server.gate(key: "sink-held-\(kind)").held == 1 })
            var iterator = counts.makeAsyncIterator()
            var seenWhileHeld: [Int64] = []
            while let sent = await iterator.next() {
                seenWhileHeld.append(sent)
                if sent > 0 { break }
            }
            #expect(seenWhileHeld.last ?? 0 > 0)
            #expect(seenWhileHeld.allSatisfy { $0 < Int64(count) })

            server.release(key: "sink-held-\(kind)")
            let response = try await sending.value
            let answer = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            #expect(answer?["length"] as? Int == count)
            #expect(answer?["sha256"] as? String == sha256Hex((0..<count).lazy.map { UInt8($0 % 251) }))
            end()  // every count was reported before the answer arrived
            var last = seenWhileHeld.last ?? 0
            var monotonic = true
            while let sent = await iterator.next() {
                monotonic = monotonic && sent >= last
                last = sent
            }
            #expect(monotonic)
            #expect(last == Int64(count))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aRequestWithoutAnObserverIsUnchanged(kind: TransportKind) async throws {
        try await withLoopbackClient(kind, configuration: ClientConfiguration()) { client, server in
            let bytes = (0..<100_000).map { UInt8($0 % 251) }
            let response = try await client.send(try Request(method: .post, url: server.url("/upload/sink/plain"), body: HTTPBody(bytes)))
            let answer = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            #expect(answer?["sha256"] as? String == sha256Hex(bytes))
        }
    }
}
