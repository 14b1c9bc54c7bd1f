import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCompression
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// zstd request bodies (`Plugin.zstdRequestCompression`) on the wire: the server decodes them to the
/// original bytes, on every transport.
@Suite(.timeLimit(.minutes(2)))
struct ZstdRequestCompressionTests {
    static func withZstdClient<T>(_ kind: TransportKind, _ body: (Client, LoopbackServer) async throws -> T) async throws -> T {
        let compression = Plugin.zstdRequestCompression(scope: RequestScope(pathPrefixes: ["/gunzip"]))
        return try await withLoopbackClient(kind, configuration: ClientConfiguration(plugins: [compression]), body)
    }

    @Test(arguments: TransportKind.allCases)
    func aLargeBufferedBodyArrivesAsZstdAndDecodesToTheOriginal(_ kind: TransportKind) async throws {
        try await Self.withZstdClient(kind) { client, server in
            let body = RequestCompressionTests.largeBody
            let response = try await client.send(try Request(method: .post, url: server.url("/gunzip"), body: HTTPBody(body)))
            #expect(response.head.status == .ok)
            let report = try RequestCompressionTests.report(response)
            #expect(report.contentEncoding == "zstd")
            #expect(report.length == body.count)
            #expect(report.sha256 == sha256Hex(body))
            #expect(report.receivedLength < body.count / 10)
            let sizes = try #require(response.context[RequestCompressionReport.Key.self])
            #expect(sizes.coding == "zstd")
            #expect(sizes.compressedBytes == Int64(report.receivedLength))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aStreamedBodyOfUnknownLengthIsCompressedChunkByChunk(_ kind: TransportKind) async throws {
        try await Self.withZstdClient(kind) { client, server in
            let body = RequestCompressionTests.largeBody
            let chunks = stride(from: 0, to: body.count, by: 10_000).map { Array(body[$0..<min($0 + 10_000, body.count)]) }
            let stream = AsyncStream<[UInt8]> { continuation in
                for chunk in chunks { continuation.yield(chunk) }
                continuation.finish()
            }
            let request = try Request(method: .put, url: server.url("/gunzip"), body: HTTPBody(stream))
            let report = try RequestCompressionTests.report(try await client.send(request))
            #expect(report.contentEncoding == "zstd")
            #expect(report.sha256 == sha256Hex(body))
        }
    }

    @Test func aBrotliBodyAlsoDecodesOnTheServer() async throws {
        let compression = Plugin.requestCompression(
            scope: RequestScope(pathPrefixes: ["/gunzip"]), coding: .brotli, level: BrotliCodec.defaultLevel)
        try await withLoopbackClient(.curl, configuration: ClientConfiguration(plugins: [compression])) { client, server in
            let body = RequestCompressionTests.largeBody
            let report = try RequestCompressionTests.report(
                try await client.send(try Request(method: .post, url: server.url("/gunzip"), body: HTTPBody(body))))
            #expect(report.contentEncoding == "br")
            #expect(report.sha256 == sha256Hex(body))
        }
    }
}
