import Foundation
@_spi(Fuzzing) import SwitchyardCurl
@_spi(Fuzzing) import SwitchyardStandardLinks
@_spi(Fuzzing) import SwitchyardTesting
import Testing

/// Replays the fuzzers' seed corpus (`Fuzz/Corpus`) through the same entry points on every test
/// run: every crash a fuzzer ever found is kept there as a seed, so it stays fixed. The cache's
/// entry point is replayed by `SwitchyardCacheTests`.
@Suite struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fuzz/Corpus").standardized

    static func inputs(_ target: String) throws -> [[UInt8]] {
        let folder = corpus.appendingPathComponent(target)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        return try names.map { try [UInt8](Data(contentsOf: folder.appendingPathComponent($0))) }
    }

    @Test func everySeedRunsThroughItsParserWithoutATrap() throws {
        for input in try Self.inputs("curl-head") { CurlFuzzEntryPoints.responseHead(input) }
        for input in try Self.inputs("retry-after") { StandardLinksFuzzEntryPoints.retryAfter(String(decoding: input, as: UTF8.self)) }
        for input in try Self.inputs("location") { StandardLinksFuzzEntryPoints.redirectLocation(String(decoding: input, as: UTF8.self)) }
        for input in try Self.inputs("recording") { RecordingFuzzEntryPoints.recording(input) }
        #expect(try Self.inputs("curl-head").count >= 4)
    }
}
