import Foundation
import Switchyard
import SwitchyardCookies
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// The cookie example of the *A tour of the package* article, run against the loopback server.
@Suite(.timeLimit(.minutes(2)))
struct CookieReadmeExampleTests {
    @Test func theReadmeExampleKeepsAUsersCookiesInItsPartition() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-cookies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let cookiesFile = directory.appendingPathComponent("cookies.json")
        let userID = "user-42"
        try await withLoopbackServer { server in
            let jar = CookieJar(store: DiskCookieStore(url: cookiesFile))  // or CookieJar() in memory
            let client = try Client(transport: CurlTransport(), configuration: ClientConfiguration(plugins: [.cookies(jar)]))
            jar.partition = userID  // on sign-in; jar.removeAll(partition:) on sign-out
            _ = try await client.send(try Request(url: server.url("/cookies/set?cookie=session%3D42")))
            #expect(try jar.allCookies(in: userID).map(\.pair) == ["session=42"])
            #expect(try jar.allCookies(in: "").isEmpty)
        }
    }
}
