import HTTPTypes
import SwitchyardCompression
import Testing

@testable import SwitchyardCore
@testable import SwitchyardTransportKit

/// The br and zstd codecs through the kernel's decoder (`Response.decodingContent`), on bodies
/// encoded by the codecs' own encoders and fed in chunks of every size, one byte at a time included.
@Suite struct CodecStreamTests {
    static let text = Array(String(repeating: "hello, codec\n", count: 500).utf8)
    static let decoders = ContentDecoders([BrotliCodec(), ZstdCodec()])

    /// `bytes` encoded with `codec`, the input given in pieces of `pieceSize`.
    static func encode(_ bytes: [UInt8], with codec: any ContentCodec, pieceSize: Int = 1000) throws -> [UInt8] {
        let encoder = try codec.makeEncoder(level: nil)
        var out: [UInt8] = []
        for start in stride(from: 0, to: bytes.count, by: pieceSize) {
            out += try encoder.encode(bytes[start..<min(bytes.count, start + pieceSize)], finish: false)
        }
        out += try encoder.encode([], finish: true)
        return out
    }

    /// Decodes `bytes` sent in chunks of `chunkSize` under `encoding`.
    static func decode(_ bytes: [UInt8], encoding: String, chunkSize: Int, limit: Int64? = nil) async throws -> [UInt8] {
        let chunks = stride(from: 0, to: bytes.count, by: chunkSize).map { bytes[$0..<min(bytes.count, $0 + chunkSize)] }
        let stream = AsyncStream<ArraySlice<UInt8>> { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
        let raw = Response(HTTPResponse(status: .ok, headerFields: [.contentEncoding: encoding]), body: HTTPBody(stream))
        let decoded = try raw.decodingContent(limit: limit, decoders: decoders)
        #expect(decoded.head.headerFields[.contentEncoding] == nil)
        var out: [UInt8] = []
        for try await chunk in try #require(decoded.body) { out += chunk }
        return out
    }

    static func failure(_ operation: () async throws -> Void) async -> SwitchyardError? {
        do {
            try await operation()
            return nil
        } catch {
            return error as? SwitchyardError
        }
    }

    static let codecs: [any ContentCodec] = [BrotliCodec(), ZstdCodec()]

    @Test(arguments: [1, 7, 4096])
    func eachCodecInAnyChunking(chunkSize: Int) async throws {
        for codec in Self.codecs {
            let encoded = try Self.encode(Self.text, with: codec)
            #expect(encoded.count < Self.text.count / 10)
            #expect(try await Self.decode(encoded, encoding: codec.name, chunkSize: chunkSize) == Self.text, "\(codec.name)")
        }
    }

    @Test func binaryBodiesLargerThanOnePieceRoundTrip() async throws {
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: ($0 * 7919) >> 3) }
        for codec in Self.codecs {
            let encoded = try Self.encode(bytes, with: codec, pieceSize: 65_536)
            #expect(try await Self.decode(encoded, encoding: codec.name, chunkSize: 1500) == bytes, "\(codec.name)")
        }
    }

    @Test func concatenatedZstdFramesAreOneBody() async throws {
        let first = try Self.encode(Array("first,".utf8), with: ZstdCodec())
        let second = try Self.encode(Array("second".utf8), with: ZstdCodec())
        #expect(try await Self.decode(first + second, encoding: "zstd", chunkSize: 3) == Array("first,second".utf8))
    }

    @Test func stackedCodingsAreUndoneInReverse() async throws {
        let inner = try Self.encode(Self.text, with: ZstdCodec())
        let outer = try Self.encode(inner, with: BrotliCodec())
        #expect(try await Self.decode(outer, encoding: "zstd, br", chunkSize: 100) == Self.text)
        let gzipped = try Self.encode(outer, with: GzipCodec())
        #expect(try await Self.decode(gzipped, encoding: "zstd, br, gzip", chunkSize: 100) == Self.text)
    }

    @Test func bytesAfterTheStreamAndDamageAreProtocolViolations() async throws {
        for codec in Self.codecs {
            let encoded = try Self.encode(Self.text, with: codec)
            let trailing = await Self.failure {
                _ = try await Self.decode(encoded + Array("trailing".utf8), encoding: codec.name, chunkSize: 64)
            }
            #expect(trailing?.kind == .protocolViolation, "\(codec.name)")
            let garbage = await Self.failure {
                _ = try await Self.decode(Array("not compressed at all".utf8), encoding: codec.name, chunkSize: 64)
            }
            #expect(garbage?.kind == .protocolViolation, "\(codec.name)")
        }
    }

    @Test(arguments: [1, 10, 50, 90, 99])
    func anUnfinishedStreamIsAProtocolViolation(keptPercent: Int) async throws {
        for codec in Self.codecs {
            let encoded = try Self.encode(Self.text, with: codec)
            let kept = min(encoded.count - 1, max(1, encoded.count * keptPercent / 100))
            let error = await Self.failure {
                _ = try await Self.decode(Array(encoded.prefix(kept)), encoding: codec.name, chunkSize: 4)
            }
            #expect(error?.kind == .protocolViolation, "\(codec.name)")
        }
        let empty = await Self.failure { _ = try await Self.decode([], encoding: "zstd", chunkSize: 4) }
        #expect(empty?.kind == .protocolViolation)
    }

    @Test func theLimitCountsDecodedBytesAndStopsABombEarly() async throws {
        let zeros = [UInt8](repeating: 0, count: 8 << 20)
        for codec in Self.codecs {
            let bomb = try Self.encode(zeros, with: codec, pieceSize: 1 << 20)
            #expect(bomb.count < 100_000, "\(codec.name): \(bomb.count)")
            let error = await Self.failure { _ = try await Self.decode(bomb, encoding: codec.name, chunkSize: 1024, limit: 100_000) }
            #expect(error?.kind == .responseTooLarge, "\(codec.name)")
            #expect(try await Self.decode(bomb, encoding: codec.name, chunkSize: 4096, limit: 8 << 20).count == 8 << 20)
        }
    }

    @Test func aZstdWindowAboveEightMebibytesIsRefused() async throws {
        // A frame announcing a 2^27-byte window (level 22 with long distance matching) is refused
        // before its window is allocated, so a hostile header cannot make the client reserve 128 MiB.
        let frame: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x88] + [UInt8](repeating: 0, count: 16)
        let error = await Self.failure { _ = try await Self.decode(frame, encoding: "zstd", chunkSize: 64) }
        #expect(error?.kind == .protocolViolation)
        #expect(error?.message.contains("zstd") == true)
    }

    @Test func theSetAdvertisesAndLooksUpItsCodings() throws {
        #expect(ContentDecoders.builtIn.acceptEncoding == "gzip, deflate")
        #expect(Self.decoders.acceptEncoding == "gzip, deflate, br, zstd")
        #expect(Self.decoders.adding([ZstdCodec()]) == Self.decoders)
        #expect(ContentDecoders.builtIn.adding([BrotliCodec()]).acceptEncoding == "gzip, deflate, br")
        #expect(ContentDecoders([GzipCodec(), BrotliCodec()]).acceptEncoding == "gzip, deflate, br")
        #expect(try ContentDecoders.builtIn.codecs(of: [.contentEncoding: "br"]) == nil)
        #expect(try Self.decoders.codecs(of: [.contentEncoding: "x-gzip, BR"])?.map(\.name) == ["gzip", "br"])
        var options = RequestOptions()
        #expect(options.contentDecoders == .builtIn)
        options.contentDecoders = Self.decoders
        #expect(options != RequestOptions())
    }
}
