import Foundation
@_spi(Fuzzing) import SwitchyardCache
import Testing

/// Replays the cache fuzzer's seed corpus (`Fuzz/Corpus/cache-control`) on every test run, so every
/// input a fuzzer found a crash with stays fixed.
@Suite struct CacheFuzzCorpusTests {
    @Test func everyCacheControlSeedParsesWithoutATrap() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fuzz/Corpus/cache-control").standardized
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.count >= 3)
        for name in names {
            let input = try Data(contentsOf: folder.appendingPathComponent(name))
            CacheFuzzCorpusTests.run(String(decoding: input, as: UTF8.self))
        }
    }

    static func run(_ value: String) { CacheFuzzEntryPoints.cacheControl(value) }
}
