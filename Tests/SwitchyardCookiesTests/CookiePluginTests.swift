import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCookies
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import Synchronization
import Testing

/// The jar in the chain, against the loopback server, on every transport.
@Suite(.timeLimit(.minutes(2)))
struct CookiePluginTests {
    private func configuration(_ jar: CookieJar, observers: [Plugin.Observer] = []) -> ClientConfiguration {
        var configuration = ClientConfiguration()
        configuration.plugins.append(.cookies(jar))
        if !observers.isEmpty { configuration.plugins.append(Plugin(name: "watch", observers: observers)) }
        return configuration
    }

    private func text(_ client: Client, _ url: String, cookie: String? = nil) async throws -> String {
        var request = try Request(url: url)
        if let cookie { request.head.headerFields[.cookie] = cookie }
        return try await client.send(request).text
    }

    @Test(arguments: TransportKind.allCases)
    func aRedirectThatSetsACookieIsFollowedWithTheCookieSent(_ kind: TransportKind) async throws {
        let jar = CookieJar()
        try await withLoopbackClient(kind, configuration: configuration(jar)) { client, server in
            let echoed = try await text(
                client, server.url("/cookies/set?cookie=sid%3Dabc%3B%20Path%3D%2F&cookie=theme%3Ddark&location=/cookies/echo"))
            // `theme` has the default path `/cookies`, longer than `sid`'s `/`: it comes first.
            #expect(echoed == "theme=dark; sid=abc")
            #expect(try await text(client, server.url("/cookies/echo/later")) == "theme=dark; sid=abc", "kept for later requests")
        }
    }

    /// RFC 6265bis §5.7 on the wire: `Domain` equal to the host (either spelling) makes a domain
    /// cookie, sent to the host's subdomains and to no other host. The names reach the loopback
    /// server through `Plugin.loopbackNames`, as curl's `--resolve` would.
    @Test(arguments: TransportKind.allCases, ["home.example.org", ".home.example.org"])
    func aDomainEqualToTheHostIsSentToItsSubdomains(_ kind: TransportKind, _ domain: String) async throws {
        let jar = CookieJar()
        var configuration = configuration(jar)
        configuration.plugins.append(.loopbackNames(["home.example.org", "sub.home.example.org", "other.example.org"]))
        try await withLoopbackClient(kind, configuration: configuration) { client, server in
            let origin = { (host: String) in "http://\(host):\(server.port)" }
            let set = "/cookies/set?cookie=foo%3Dbar%3B%20Path%3D%2F%3B%20domain%3D\(domain)"
            #expect(try await text(client, origin("home.example.org") + set) == "set\n")
            #expect(try await text(client, origin("sub.home.example.org") + "/cookies/echo") == "foo=bar")
            #expect(try await text(client, origin("home.example.org") + "/cookies/echo") == "foo=bar")
            #expect(try await text(client, origin("other.example.org") + "/cookies/echo") == "")
            #expect(server.requestCount(path: "/cookies/echo") == 3, "every request reached the loopback server")
            let stored = try jar.allCookies()
            #expect(stored.map { "\($0.domain) \($0.isHostOnly)" } == ["home.example.org false"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func theAppsOwnCookieFieldComesFirstInOneField(_ kind: TransportKind) async throws {
        let jar = CookieJar()
        try await withLoopbackClient(kind, configuration: configuration(jar)) { client, server in
            _ = try await text(client, server.url("/cookies/set?cookie=jar%3D1"))
            #expect(try await text(client, server.url("/cookies/echo"), cookie: "own=0") == "own=0; jar=1")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func signingOutClearsOnePartitionOnly(_ kind: TransportKind) async throws {
        let jar = CookieJar()
        try await withLoopbackClient(kind, configuration: configuration(jar)) { client, server in
            jar.partition = "alice"
            _ = try await text(client, server.url("/cookies/set?cookie=session%3Dalice"))
            jar.partition = "bob"
            _ = try await text(client, server.url("/cookies/set?cookie=session%3Dbob"))
            try jar.removeAll(partition: "alice")
            jar.partition = "alice"
            #expect(try await text(client, server.url("/cookies/echo")) == "")
            jar.partition = "bob"
            #expect(try await text(client, server.url("/cookies/echo")) == "session=bob")
        }
    }

    @Test func aStoreThatCannotBeWrittenIsAnEventAndTheResponseStillArrives() async throws {
        let unwritable = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/jar.json")
        let jar = CookieJar(store: DiskCookieStore(url: unwritable))
        let failures = Mutex<[CookieStoreFailed]>([])
        let watch: Plugin.Observer = { event in
            if let failed = event.plugin(CookieStoreFailed.self) { failures.withLock { $0.append(failed) } }
        }
        try await withLoopbackClient(.curl, configuration: configuration(jar, observers: [watch])) { client, server in
            let body = try await text(client, server.url("/cookies/set?cookie=a%3D1"))
            #expect(body == "set\n")
        }
        let seen = failures.withLock { $0 }
        #expect(seen.map(\.operation) == ["write"])
        #expect(seen.first?.message.contains("jar.json.lock") == true)
    }

    @Test func requestsOutsideTheScopeNeitherSendNorStore() async throws {
        let jar = CookieJar()
        var configuration = ClientConfiguration()
        configuration.plugins.append(.cookies(jar, scope: RequestScope(pathPrefixes: ["/cookies/echo"])))
        try await withLoopbackClient(.curl, configuration: configuration) { client, server in
            _ = try await text(client, server.url("/cookies/set?cookie=a%3D1"))
            #expect(try jar.allCookies().isEmpty)
        }
    }
}

/// The module article's example, run.
@Suite(.timeLimit(.minutes(2)))
struct CookieArticleExampleTests {
    @Test func theArticlesExampleKeepsCookiesInAFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let cookiesFile = directory.appendingPathComponent("cookies.json")
        try await withLoopbackServer { server in
            let jar = CookieJar(store: DiskCookieStore(url: cookiesFile))
            var configuration = ClientConfiguration()
            configuration.plugins.append(.cookies(jar))
            let client = try Client(transport: CurlTransport(), configuration: configuration)
            _ = try await client.send(try Request(url: server.url("/cookies/set?cookie=a%3D1%3B%20Path%3D%2F")))
            let echoed = try await client.send(try Request(url: server.url("/cookies/echo")))
            #expect(echoed.text == "a=1")
        }
        let reopened = CookieJar(store: DiskCookieStore(url: cookiesFile))
        #expect(try reopened.allCookies().map(\.pair) == ["a=1"])
    }
}
