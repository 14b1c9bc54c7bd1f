import Foundation
import Switchyard
import SwitchyardCookies
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// README.md's cookie example, run against the loopback server. The README still shows
/// `CookiePlugin.make(jar:)`: the test keeps its lines verbatim (deprecated, so it compiles without
/// warnings) until the README shows `.cookies(jar)`.
@Suite(.timeLimit(.minutes(2)))
struct CookieReadmeExampleTests {
    @available(*, deprecated, message: "README.md's example still uses CookiePlugin.make; update both together")
    @Test func theReadmeExampleKeepsAUsersCookiesInItsPartition() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-cookies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let cookiesFile = directory.appendingPathComponent("cookies.json")
        let userID = "user-42"
        try await withLoopbackServer { server in
            let jar = CookieJar(store: DiskCookieStore(url: cookiesFile))  // or CookieJar() in memory
            let client = try Client(transport: CurlTransport(), configuration: ClientConfiguration(plugins: [CookiePlugin.make(jar: jar)]))
            jar.partition = userID  // on sign-in; jar.removeAll(partition:) on sign-out
            _ = try await client.send(try Request(url: server.url("/cookies/set?cookie=session%3D42")))
            #expect(try jar.allCookies(in: userID).map(\.pair) == ["session=42"])
            #expect(try jar.allCookies(in: "").isEmpty)
        }
    }
}
