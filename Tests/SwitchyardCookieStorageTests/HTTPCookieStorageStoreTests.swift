import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCookieStorage
import SwitchyardCookies
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The jar kept in Foundation's HTTPCookieStorage, against the loopback server.
@Suite(.timeLimit(.minutes(2)))
struct HTTPCookieStorageStoreTests {
    /// A storage of its own for each test (and partition), so tests never share `.shared`.
    private static func storage(_ name: String) -> HTTPCookieStorage {
        HTTPCookieStorage.sharedCookieStorage(forGroupContainerIdentifier: "switchyard-tests-\(name)-\(UUID().uuidString)")
    }

    private func configuration(_ jar: CookieJar) -> ClientConfiguration {
        var configuration = ClientConfiguration()
        configuration.plugins.append(.cookies(jar))
        return configuration
    }

    @Test(arguments: TransportKind.allCases)
    func cookiesTheServerSetsAreInTheStorageAndTheStoragesCookiesAreSent(_ kind: TransportKind) async throws {
        let storage = Self.storage("shared")
        let jar = CookieJar(store: HTTPCookieStorageStore(storage: { _ in storage }))
        try await withLoopbackClient(kind, configuration: configuration(jar)) { client, server in
            let url = try #require(URL(string: server.url("/cookies/echo")))
            _ = try await client.send(try Request(url: server.url("/cookies/set?cookie=sid%3Dabc%3B%20Path%3D%2F%3B%20HttpOnly")))
            let stored = try #require(storage.cookies(for: url)?.first { $0.name == "sid" })
            #expect(stored.value == "abc")
            #expect(stored.isHTTPOnly)
            #expect(!stored.domain.hasPrefix("."), "a cookie without Domain stays host-only")

            // Another Foundation user of the same storage sets a cookie: the jar sends it.
            let other = try #require(
                HTTPCookie(properties: [.name: "theme", .value: "dark", .domain: url.host ?? "", .path: "/"]))
            storage.setCookie(other)
            let echoed = try await client.send(try Request(url: server.url("/cookies/echo"))).text
            #expect(echoed.split(separator: "; ").sorted() == ["sid=abc", "theme=dark"])

            // An expiry in the past from the server deletes it from the storage too.
            _ = try await client.send(try Request(url: server.url("/cookies/set?cookie=sid%3D%3B%20Path%3D%2F%3B%20Max-Age%3D0")))
            #expect(storage.cookies(for: url)?.map(\.name) == ["theme"])
        }
        storage.removeCookies(since: .distantPast)
    }

    @Test func eachPartitionCanHaveItsOwnStorage() throws {
        let alice = Self.storage("alice")
        let bob = Self.storage("bob")
        let store = HTTPCookieStorageStore(storage: { $0 == "alice" ? alice : bob })
        let jar = CookieJar(store: store)
        jar.partition = "alice"
        try jar.insert(Cookie(name: "session", value: "alice", domain: "example.com", isSecure: true))
        jar.partition = "bob"
        try jar.insert(Cookie(name: "session", value: "bob", domain: "example.com", isHostOnly: false, path: "/app"))
        try jar.removeAll(partition: "alice")
        #expect(alice.cookies?.isEmpty == true)
        let kept = try #require(bob.cookies?.first)
        #expect(kept.value == "bob")
        #expect(kept.domain == ".example.com", "a domain cookie keeps Foundation's leading dot")
        #expect(kept.path == "/app")
        #expect(try jar.allCookies(in: "bob").map(\.pair) == ["session=bob"])
        #expect(try jar.allCookies(in: "bob").first?.isHostOnly == false)
        bob.removeCookies(since: .distantPast)
    }
}
