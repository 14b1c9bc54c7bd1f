import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCache
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// The request's own `Cache-Control` (RFC 9111 §5.2.1): `max-stale`, `min-fresh`,
/// `only-if-cached` and `no-store`, over every transport. Ages come from a clock the test moves.
@Suite(.timeLimit(.minutes(2)))
struct CacheRequestDirectiveTests {
    static func cache(_ clock: TestClock) -> HTTPCache {
        var configuration = CacheConfiguration()
        configuration.now = clock.now
        return HTTPCache(configuration: configuration)
    }

    @Test(arguments: TransportKind.allCases)
    func maxStaleAcceptsAStaleResponseUpToItsLimit(_ kind: TransportKind) async throws {
        let clock = TestClock()
        try await withCachingClient(kind, cache: Self.cache(clock)) { client, server in
            let path = "/cache/maxstale?max_age=10"
            _ = try await client.send(try get(server, path))
            clock.advance(seconds: 100)  // stale by 90 s

            let within = try await client.send(try get(server, path, cacheControl: "max-stale=600"))
            #expect(within.text == "maxstale #1\n")
            #expect(within.context.provenance.source == .stale)
            let unlimited = try await client.send(try get(server, path, cacheControl: "max-stale"))
            #expect(unlimited.text == "maxstale #1\n")
            #expect(unlimited.context.provenance.source == .stale)
            #expect(server.requestCount(path: "/cache/maxstale") == 1)

            let beyond = try await client.send(try get(server, path, cacheControl: "max-stale=60"))
            #expect(beyond.text == "maxstale #2\n")
            #expect(beyond.context.provenance == .network)

            // must-revalidate wins over max-stale (RFC 9111 §5.2.2.2).
            let strict = "/cache/maxstalestrict?cache_control=max-age=10,must-revalidate"
            _ = try await client.send(try get(server, strict))
            clock.advance(seconds: 100)
            #expect(try await client.send(try get(server, strict, cacheControl: "max-stale")).text == "maxstalestrict #2\n")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func minFreshAsksForAResponseThatStaysFreshLonger(_ kind: TransportKind) async throws {
        let clock = TestClock()
        try await withCachingClient(kind, cache: Self.cache(clock)) { client, server in
            let path = "/cache/minfresh?max_age=600"
            _ = try await client.send(try get(server, path))
            clock.advance(seconds: 100)  // fresh for 500 s more

            let enough = try await client.send(try get(server, path, cacheControl: "min-fresh=400"))
            #expect(enough.text == "minfresh #1\n")
            #expect(enough.context.provenance.source == .cache)
            let tooShort = try await client.send(try get(server, path, cacheControl: "min-fresh=550"))
            #expect(tooShort.text == "minfresh #2\n")
            #expect(tooShort.context.provenance == .network)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func onlyIfCachedNeverSendsAndAnswers504WithoutAUsableResponse(_ kind: TransportKind) async throws {
        let clock = TestClock()
        try await withCachingClient(kind, cache: Self.cache(clock)) { client, server in
            let path = "/cache/onlyif?max_age=600"
            let miss = try await client.send(try get(server, path, cacheControl: "only-if-cached"))
            #expect(miss.head.status == .gatewayTimeout)
            #expect(server.requestCount(path: "/cache/onlyif") == 0)

            _ = try await client.send(try get(server, path))
            let hit = try await client.send(try get(server, path, cacheControl: "only-if-cached"))
            #expect(hit.head.status == .ok)
            #expect(hit.text == "onlyif #1\n")
            #expect(hit.context.provenance.source == .cache)

            clock.advance(seconds: 700)  // stale: not usable unless the request accepts it
            let stale = try await client.send(try get(server, path, cacheControl: "only-if-cached"))
            #expect(stale.head.status == .gatewayTimeout)
            let accepted = try await client.send(try get(server, path, cacheControl: "only-if-cached, max-stale"))
            #expect(accepted.text == "onlyif #1\n")
            #expect(accepted.context.provenance.source == .stale)
            #expect(server.requestCount(path: "/cache/onlyif") == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func noStoreInARequestKeepsItsResponseOutOfTheCache(_ kind: TransportKind) async throws {
        try await withCachingClient(kind, cache: HTTPCache()) { client, server in
            let path = "/cache/reqnostore?max_age=600"
            #expect(try await client.send(try get(server, path, cacheControl: "no-store")).text == "reqnostore #1\n")
            let plain = try await client.send(try get(server, path))
            #expect(plain.text == "reqnostore #2\n")  // nothing was stored
            // RFC 9111 §5.2.1.5: a response already stored may answer a no-store request.
            let answered = try await client.send(try get(server, path, cacheControl: "no-store"))
            #expect(answered.text == "reqnostore #2\n")
            #expect(answered.context.provenance.source == .cache)
            #expect(server.requestCount(path: "/cache/reqnostore") == 2)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aNoStoreRequestsRevalidationDoesNotRefreshTheStoredResponse(_ kind: TransportKind) async throws {
        try await withCachingClient(kind, cache: HTTPCache()) { client, server in
            let path = "/cache/nsrefresh?max_age=0&etag=n"
            _ = try await client.send(try get(server, path))
            let revalidated = try await client.send(try get(server, path, cacheControl: "no-store"))
            #expect(revalidated.context.provenance.source == .revalidated)
            #expect(revalidated.text == "nsrefresh #1\n")
            let stored = try await client.send(try get(server, path, policy: .cacheOnly))
            #expect(stored.head.headerFields[requestNumber] == "1")
        }
    }
}
