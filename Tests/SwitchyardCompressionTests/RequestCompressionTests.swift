import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardCompression
import SwitchyardConformance
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardURLSession
import Testing

/// What `/gunzip` reports about the body it received.
struct GunzipReport: Decodable, Equatable {
    let contentEncoding: String
    let receivedLength: Int
    let length: Int
    let sha256: String

    enum CodingKeys: String, CodingKey {
        case contentEncoding = "content_encoding"
        case receivedLength = "received_length"
        case length, sha256
    }
}

/// Gzip request bodies on the wire: the server decodes them to the original bytes, on every transport.
@Suite(.timeLimit(.minutes(2)))
struct RequestCompressionTests {
    /// 1 MiB of compressible text.
    static let largeBody = Array(String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 23_302).utf8)

    static func withCompressingClient<T>(
        _ kind: TransportKind, _ body: (Client, LoopbackServer) async throws -> T
    ) async throws -> T {
        let compression = Plugin.requestCompression(scope: RequestScope(pathPrefixes: ["/gunzip", "/echo"]))
        return try await withLoopbackClient(kind, configuration: ClientConfiguration(plugins: [compression]), body)
    }

    static func report(_ response: BufferedResponse) throws -> GunzipReport {
        try JSONDecoder().decode(GunzipReport.self, from: Data(response.body))
    }

    @Test(arguments: TransportKind.allCases)
    func aLargeBufferedBodyArrivesGzippedAndDecodesToTheOriginal(_ kind: TransportKind) async throws {
        try await Self.withCompressingClient(kind) { client, server in
            let request = try Request(method: .post, url: server.url("/gunzip"), body: HTTPBody(Self.largeBody))
            let response = try await client.send(request)
            #expect(response.head.status == .ok)
            let report = try Self.report(response)
            #expect(report.contentEncoding == "gzip")
            #expect(report.length == Self.largeBody.count)
            #expect(report.sha256 == sha256Hex(Self.largeBody))
            #expect(report.receivedLength < Self.largeBody.count / 10)
            let sizes = try #require(response.context[RequestCompressionReport.Key.self])
            #expect(
                sizes
                    == RequestCompressionReport(
                        coding: "gzip", originalBytes: Int64(Self.largeBody.count), compressedBytes: Int64(report.receivedLength)))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aStreamedBodyOfUnknownLengthIsCompressedChunkByChunk(_ kind: TransportKind) async throws {
        try await Self.withCompressingClient(kind) { client, server in
            let chunks = stride(from: 0, to: Self.largeBody.count, by: 10_000).map {
                Array(Self.largeBody[$0..<min($0 + 10_000, Self.largeBody.count)])
            }
            let stream = AsyncStream<[UInt8]> { continuation in
                for chunk in chunks { continuation.yield(chunk) }
                continuation.finish()
            }
            let request = try Request(method: .put, url: server.url("/gunzip"), body: HTTPBody(stream))
            let report = try Self.report(try await client.send(request))
            #expect(report.contentEncoding == "gzip")
            #expect(report.length == Self.largeBody.count)
            #expect(report.sha256 == sha256Hex(Self.largeBody))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aSmallBodyGoesUntouchedWithItsContentLength(_ kind: TransportKind) async throws {
        try await Self.withCompressingClient(kind) { client, server in
            let small = Array("amount=12.50".utf8)
            let request = try Request(method: .post, url: server.url("/echo"), body: HTTPBody(small))
            let response = try await client.send(request)
            let echo = try EchoReport(json: response.body)
            #expect(echo.values(of: "Content-Encoding").isEmpty)
            #expect(echo.values(of: "Content-Length") == ["\(small.count)"])
            #expect(echo.bodySHA256 == sha256Hex(small))
            #expect(response.context[RequestCompressionReport.Key.self] == nil)
        }
    }

    @Test func aLargeBodyLosesItsContentLengthAndCarriesContentEncoding() async throws {
        try await Self.withCompressingClient(.curl) { client, server in
            let request = try Request(method: .post, url: server.url("/echo"), body: HTTPBody(Self.largeBody))
            let echo = try EchoReport(json: try await client.send(request).body)
            #expect(echo.values(of: "Content-Encoding") == ["gzip"])
            #expect(echo.values(of: "Content-Length").isEmpty)
            #expect(echo.bodyLength < Self.largeBody.count / 10)
        }
    }
}
