import HTTPTypes
import Testing

@testable import Switchyard
@testable import SwitchyardCore
@testable import SwitchyardTransportKit

/// The decoder every transport that receives encoded bytes shares (`Response.decodingContent`),
/// on byte-exact bodies fed in chunks of every size, including one byte at a time.
@Suite struct ContentDecodingTests {
    static let text = Array(String(repeating: "hello, gzip\n", count: 10).utf8)
    /// `text` as one gzip member (Python's gzip.compress, mtime 0).
    static let gzip: [UInt8] = [
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0xd7, 0x51, 0x48,
        0xaf, 0xca, 0x2c, 0xe0, 0xca, 0xa0, 0x23, 0x1b, 0x00, 0x97, 0x72, 0x4b, 0x4f, 0x78, 0x00, 0x00, 0x00
    ]
    /// `first,` and `second` as two concatenated gzip members.
    static let twoMembers: [UInt8] = [
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x4b, 0xcb, 0x2c, 0x2a, 0x2e, 0xd1, 0x01, 0x00,
        0xd7, 0x36, 0x47, 0x15, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03,
        0x2b, 0x4e, 0x4d, 0xce, 0xcf, 0x4b, 0x01, 0x00, 0x69, 0x11, 0x1f, 0xb6, 0x06, 0x00, 0x00, 0x00
    ]
    /// `text` as a raw deflate stream without the zlib wrapper, as some servers send `deflate`.
    static let rawDeflate: [UInt8] = [
        0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0xd7, 0x51, 0x48, 0xaf, 0xca, 0x2c, 0xe0, 0xca, 0xa0, 0x23, 0x1b, 0x00
    ]

    /// Decodes `bytes` sent in chunks of `chunkSize` under `encoding`.
    static func decode(_ bytes: [UInt8], encoding: String, chunkSize: Int, limit: Int64? = nil) async throws -> [UInt8] {
        let chunks = stride(from: 0, to: bytes.count, by: chunkSize).map { bytes[$0..<min(bytes.count, $0 + chunkSize)] }
        let stream = AsyncStream<ArraySlice<UInt8>> { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
        let raw = Response(
            HTTPResponse(
                status: .ok,
                headerFields: [
                    .contentEncoding: encoding,
                    .contentLength: String(bytes.count)
                ]),
            body: HTTPBody(stream))
        let decoded = try raw.decodingContent(limit: limit)
        #expect(decoded.head.headerFields[.contentEncoding] == nil)
        #expect(decoded.head.headerFields[.contentLength] == nil)
        var out: [UInt8] = []
        for try await chunk in try #require(decoded.body) { out += chunk }
        return out
    }

    @Test(arguments: [1, 7, 4096])
    func gzipInAnyChunking(chunkSize: Int) async throws {
        #expect(try await Self.decode(Self.gzip, encoding: "gzip", chunkSize: chunkSize) == Self.text)
    }

    @Test func concatenatedGzipMembersAreOneBody() async throws {
        #expect(try await Self.decode(Self.twoMembers, encoding: "x-gzip", chunkSize: 5) == Array("first,second".utf8))
    }

    @Test func rawDeflateIsAccepted() async throws {
        #expect(try await Self.decode(Self.rawDeflate, encoding: "deflate", chunkSize: 3) == Self.text)
    }

    @Test func bytesAfterTheStreamAreAProtocolViolation() async throws {
        let trailing = await #expect(throws: SwitchyardError.self) {
            _ = try await Self.decode(Self.gzip + Array("trailing".utf8), encoding: "gzip", chunkSize: 8)
        }
        #expect(trailing?.kind == .protocolViolation)
        let error = await Self.failure { _ = try await Self.decode(Self.gzip + [0x00], encoding: "gzip", chunkSize: 64) }
        #expect(error?.kind == .protocolViolation)
    }

    @Test func aCorruptStreamIsAProtocolViolation() async throws {
        var corrupt = Self.gzip
        corrupt[14] ^= 0xFF
        corrupt[15] ^= 0xFF
        let error = await Self.failure { _ = try await Self.decode(corrupt, encoding: "gzip", chunkSize: 64) }
        #expect(error?.kind == .protocolViolation)
    }

    @Test(arguments: [1, 10, 34])
    func anUnfinishedStreamIsAProtocolViolation(keptBytes: Int) async throws {
        let error = await Self.failure { _ = try await Self.decode(Array(Self.gzip.prefix(keptBytes)), encoding: "gzip", chunkSize: 4) }
        #expect(error?.kind == .protocolViolation)
    }

    @Test func theLimitCountsDecodedBytes() async throws {
        let error = await Self.failure { _ = try await Self.decode(Self.gzip, encoding: "gzip", chunkSize: 64, limit: 50) }
        #expect(error?.kind == .responseTooLarge)
        #expect(try await Self.decode(Self.gzip, encoding: "gzip", chunkSize: 64, limit: 120) == Self.text)
    }

    @Test func unknownCodingsAndIdentityLeaveTheResponseAlone() throws {
        for encoding in ["br", "gzip, br", "zstd"] {
            let head = HTTPResponse(status: .ok, headerFields: [.contentEncoding: encoding])
            let response = try Response(head, body: HTTPBody([1, 2, 3])).decodingContent(limit: nil)
            #expect(response.head.headerFields[.contentEncoding] == encoding)
        }
        let identity = try ContentDecoders.builtIn.codecs(of: [.contentEncoding: "identity"])
        #expect(identity?.isEmpty == true)
    }

    @Test func moreThanThreeLayersAreRefused() {
        let gzipLayers = #expect(throws: SwitchyardError.self) {
            try ContentDecoders.builtIn.codecs(of: [.contentEncoding: "gzip, gzip, gzip, gzip"])
        }
        #expect(gzipLayers?.kind == .protocolViolation)
        let brLayers = #expect(throws: SwitchyardError.self) { try ContentDecoders.checkLayers(of: [.contentEncoding: "br, br, br, br"]) }
        #expect(brLayers?.kind == .protocolViolation)
        let names = (try? ContentDecoders.builtIn.codecs(of: [.contentEncoding: "gzip, deflate"]))?.map(\.name)
        #expect(names == ["gzip", "deflate"])
    }

    static func failure(_ operation: () async throws -> Void) async -> SwitchyardError? {
        do {
            try await operation()
            return nil
        } catch {
            return error as? SwitchyardError
        }
    }
}
