import HTTPTypes
import Switchyard
import SwitchyardCompression
import Testing

@testable import SwitchyardCore
@testable import SwitchyardTransportKit

/// The gzip request-body encoder and its interceptor, in memory: the core's own decoder gets the
/// original bytes back whatever the chunking, and the interceptor leaves what it should alone.
@Suite struct RequestCompressionInterceptorTests {
    /// 300 KiB of semi-random, partly compressible bytes.
    static let bytes: [UInt8] = (0..<300 * 1024).map { UInt8(truncatingIfNeeded: ($0 * 31 + $0 / 7) % 97) }

    static func collect(_ body: HTTPBody) async throws -> [UInt8] {
        var out: [UInt8] = []
        for try await chunk in body { out += chunk }
        return out
    }

    /// Decodes gzip bytes with the decoder responses use.
    static func gunzip(_ bytes: [UInt8]) async throws -> [UInt8] {
        let response = Response(HTTPResponse(status: .ok, headerFields: [.contentEncoding: "gzip"]), body: HTTPBody(bytes))
        return try await collect(try #require(try response.decodingContent(limit: nil).body))
    }

    static func streamed(_ bytes: [UInt8], chunkSize: Int) -> HTTPBody {
        let chunks = stride(from: 0, to: bytes.count, by: chunkSize).map { bytes[$0..<min(bytes.count, $0 + chunkSize)] }
        let stream = AsyncStream<ArraySlice<UInt8>> { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
        return HTTPBody(stream)
    }

    @Test(arguments: [1, 1000, 64 * 1024, 1 << 20])
    func aStreamInAnyChunkingRoundTrips(chunkSize: Int) async throws {
        let sizes = Lock<(Int64, Int64)?>(nil)
        let gzipped = Self.streamed(Self.bytes, chunkSize: chunkSize).encoded(with: GzipCodec(), level: 6) { plain, compressed in
            sizes.withLock { $0 = (plain, compressed) }
        }
        #expect(gzipped.length == .unknown)
        #expect(gzipped.replayability == .singleUse)
        let compressed = try await Self.collect(gzipped)
        #expect(try await Self.gunzip(compressed) == Self.bytes)
        let recorded = try #require(sizes.withLock { $0 })
        #expect(recorded.0 == Int64(Self.bytes.count))
        #expect(recorded.1 == Int64(compressed.count))
    }

    @Test func everyPieceIsBoundedWhateverTheInput() async throws {
        // Each piece is what zlib released for one source chunk: bounded by that chunk plus one
        // output piece of zlib's buffered slack, never by the body's size.
        let gzipped = Self.streamed(Self.bytes, chunkSize: 16 * 1024).encoded(with: GzipCodec(), level: 1) { _, _ in }
        var largest = 0
        for try await chunk in gzipped { largest = max(largest, chunk.count) }
        #expect(largest <= 16 * 1024 + Deflater.pieceSize)
    }

    @Test func aReplayableBodyStaysReplayableAndEachIterationIsComplete() async throws {
        let gzipped = HTTPBody(Self.bytes).encoded(with: GzipCodec(), level: 6) { _, _ in }
        #expect(gzipped.replayability == .replayable)
        let first = try await Self.collect(gzipped)
        let second = try await Self.collect(gzipped)
        #expect(first == second)
        #expect(try await Self.gunzip(second) == Self.bytes)
    }

    @Test func anEmptyBodyIsAValidEmptyGzipStream() async throws {
        let compressed = try await Self.collect(HTTPBody([UInt8]()).encoded(with: GzipCodec(), level: 6) { _, _ in })
        #expect(!compressed.isEmpty)
        #expect(try await Self.gunzip(compressed) == [])
    }

    /// Runs `request` through the interceptor and returns what reached `next`.
    static func intercepted(_ request: Request, minimumBytes: Int64 = 1024) async throws -> Request {
        let seen = Lock<Request?>(nil)
        let client = Client(
            transport: ClosureTransport { request, _ in
                seen.withLock { $0 = request }
                return Response(status: .ok)
            }, interceptors: [RequestCompressionInterceptor(minimumBytes: minimumBytes)])
        _ = try await client.send(request)
        return try #require(seen.withLock { $0 })
    }

    @Test func smallBodiesAndAlreadyEncodedBodiesAreLeftAlone() async throws {
        let small = try await Self.intercepted(try Request(method: .post, url: "http://example.com/", body: HTTPBody("tiny")))
        #expect(small.head.headerFields[.contentEncoding] == nil)
        #expect(small.body?.length == .known(4))

        var encoded = try Request(method: .post, url: "http://example.com/", body: HTTPBody(Self.bytes))
        encoded.head.headerFields[.contentEncoding] = "br"
        let untouched = try await Self.intercepted(encoded)
        #expect(untouched.head.headerFields[.contentEncoding] == "br")
        #expect(untouched.body?.length == .known(Int64(Self.bytes.count)))
    }

    @Test func aLargeBodyGetsContentEncodingAndLosesContentLength() async throws {
        var request = try Request(method: .post, url: "http://example.com/", body: HTTPBody(Self.bytes))
        request.head.headerFields[.contentLength] = String(Self.bytes.count)
        let sent = try await Self.intercepted(request)
        #expect(sent.head.headerFields[.contentEncoding] == "gzip")
        #expect(sent.head.headerFields[.contentLength] == nil)
        #expect(sent.body?.length == .unknown)
    }
}
