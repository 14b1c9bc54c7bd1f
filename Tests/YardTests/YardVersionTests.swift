import Foundation
import Testing

@Suite(.timeLimit(.minutes(2))) struct YardVersionTests {
    /// `yard --version` prints the version of CHANGELOG.md's top entry.
    @Test func versionIsTheChangelogsTopEntry() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let top = try #require(changelog.split(separator: "\n").first { $0.hasPrefix("## ") })
        let version = try #require(top.dropFirst(3).split(separator: " ").first)
        let run = try await runYard(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == String(version))
    }

    /// `yard serve --help` lists the test server's routes, so nobody has to read its source to try it.
    @Test func serveHelpListsTheRoutes() async throws {
        let run = try await runYard(["serve", "--help"])
        #expect(run.status == 0)
        for pattern in ["/status/{code}", "/events/{key}", "/cookies/set?cookie=V", "/malformed/"] {
            #expect(run.stdout.contains(pattern), "\(pattern) is missing from `yard serve --help`")
        }
    }

    /// Shell completion comes from the typed options: the transports and cache policies are offered.
    @Test func completionScriptsOfferTheTypedValues() async throws {
        for shell in ["bash", "zsh", "fish"] {
            let run = try await runYard(["--generate-completion-script", shell])
            #expect(run.status == 0, "\(shell): \(run.stderr)")
            #expect(run.stdout.contains("urlsession"), "\(shell)")
            #expect(run.stdout.contains("stale-if-error"), "\(shell)")
        }
    }
}
