import Foundation
import Switchyard
import Testing

/// The version in the code is the changelog's top entry, so `yard --version` never drifts from it.
@Suite struct ChangelogVersionTests {
    @Test func theVersionIsTheChangelogsTopEntry() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let top = try #require(changelog.split(separator: "\n").first { $0.hasPrefix("## ") })
        #expect(top.dropFirst(3).hasPrefix(SwitchyardVersion.current + " "), "top entry: \(top)")
    }
}
