import HTTPTypes
import Switchyard
import SwitchyardCache
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// RFC 9111 behaviour of the cache plugin against the loopback server, on every transport.
@Suite(.timeLimit(.minutes(2)))
struct CacheLoopbackTests {
    @Test(arguments: TransportKind.allCases)
    func freshHitIsServedWithoutARequest(_ kind: TransportKind) async throws {
        let log = ProvenanceLog()
        try await withCachingClient(kind, cache: HTTPCache(), log: log) { client, server in
            let first = try await client.send(try get(server, "/cache/fresh?max_age=600"))
            let second = try await client.send(try get(server, "/cache/fresh?max_age=600"))
            #expect(first.text == "fresh #1\n")
            #expect(second.text == "fresh #1\n")
            #expect(second.head.status == .ok)
            #expect(server.requestCount(path: "/cache/fresh") == 1)
            #expect(first.context.provenance == .network)
            #expect(second.context.provenance.source == .cache)
            #expect(second.context.provenance.age != nil)
            #expect(second.head.headerFields[.age] != nil)
            #expect(log.sources == [.network, .cache])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func notModifiedRevalidatesAndRefreshesTheStoredHeaders(_ kind: TransportKind) async throws {
        let log = ProvenanceLog()
        let cache = HTTPCache()
        try await withCachingClient(kind, cache: cache, log: log) { client, server in
            let path = "/cache/etag?max_age=0&etag=v1"
            let first = try await client.send(try get(server, path))
            #expect(first.head.headerFields[HTTPField.Name("X-Request-Number")!] == "1")

            let second = try await client.send(try get(server, path))
            #expect(server.requestCount(path: "/cache/etag") == 2)
            #expect(second.head.status == .ok)
            #expect(second.text == "etag #1\n")
            #expect(second.head.headerFields[HTTPField.Name("X-Request-Number")!] == "2")
            #expect(second.context.provenance.source == .revalidated)

            // The stored entry carries the refreshed header fields (read without the network).
            let offline = try await client.send(try get(server, path, policy: .cacheOnly))
            #expect(offline.head.headerFields[HTTPField.Name("X-Request-Number")!] == "2")
            #expect(offline.text == "etag #1\n")
            #expect(server.requestCount(path: "/cache/etag") == 2)
            #expect(log.sources == [.network, .revalidated, .stale])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func lastModifiedRevalidates(_ kind: TransportKind) async throws {
        try await withCachingClient(kind, cache: HTTPCache()) { client, server in
            let path = "/cache/modified?max_age=0&last_modified=Sun,%2006%20Nov%202022%2008:49:37%20GMT"
            _ = try await client.send(try get(server, path))
            let second = try await client.send(try get(server, path))
            #expect(second.text == "modified #1\n")
            #expect(second.context.provenance.source == .revalidated)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func noStoreResponsesAreNeverStored(_ kind: TransportKind) async throws {
        try await withCachingClient(kind, cache: HTTPCache()) { client, server in
            let first = try await client.send(try get(server, "/cache/nostore?no_store=1&max_age=600"))
            let second = try await client.send(try get(server, "/cache/nostore?no_store=1&max_age=600"))
            #expect(first.text == "nostore #1\n")
            #expect(second.text == "nostore #2\n")
            let offline = await failure(of: client, try get(server, "/cache/nostore?no_store=1&max_age=600", policy: .cacheOnly))
            #expect(offline?.kind == .cacheMiss)
            #expect(server.requestCount(path: "/cache/nostore") == 2)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func varyKeepsOneVariantPerRequestHeaderValue(_ kind: TransportKind) async throws {
        try await withCachingClient(kind, cache: HTTPCache()) { client, server in
            let path = "/cache/vary?max_age=600&vary=Accept"
            let json = try await client.send(try get(server, path, headers: ["Accept": "application/json"]))
            let text = try await client.send(try get(server, path, headers: ["Accept": "text/plain"]))
            let jsonAgain = try await client.send(try get(server, path, headers: ["Accept": "application/json"]))
            let textAgain = try await client.send(try get(server, path, headers: ["Accept": "text/plain"]))
            #expect(json.text == "vary #1 Accept=application/json\n")
            #expect(text.text == "vary #2 Accept=text/plain\n")
            #expect(jsonAgain.text == json.text)
            #expect(textAgain.text == text.text)
            #expect(jsonAgain.context.provenance.source == .cache)
            #expect(server.requestCount(path: "/cache/vary") == 2)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func postInvalidatesTheURL(_ kind: TransportKind) async throws {
        try await withCachingClient(kind, cache: HTTPCache()) { client, server in
            let path = "/cache/posted?max_age=600"
            _ = try await client.send(try get(server, path))
            _ = try await client.send(try Request(method: .post, url: server.url(path), body: HTTPBody("x")))
            let after = try await client.send(try get(server, path))
            #expect(after.text == "posted #3\n")
            #expect(after.context.provenance == .network)
            #expect(server.requestCount(path: "/cache/posted") == 3)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func cacheOnlyMissFailsWithoutSending(_ kind: TransportKind) async throws {
        try await withCachingClient(kind, cache: HTTPCache()) { client, server in
            let error = await failure(of: client, try get(server, "/cache/offline?max_age=600", policy: .cacheOnly))
            #expect(error?.kind == .cacheMiss)
            #expect(server.requestCount(path: "/cache/offline") == 0)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func authorizedResponsesAreStoredOnlyWhenAllowed(_ kind: TransportKind) async throws {
        try await withCachingClient(kind, cache: HTTPCache()) { client, server in
            let auth: KeyValuePairs<String, String> = ["Authorization": "Bearer t"]
            _ = try await client.send(try get(server, "/cache/auth?max_age=600", headers: auth))
            let again = try await client.send(try get(server, "/cache/auth?max_age=600", headers: auth))
            #expect(again.text == "auth #2\n")
            _ = try await client.send(try get(server, "/cache/public?cache_control=public,max-age=600", headers: auth))
            let stored = try await client.send(try get(server, "/cache/public?cache_control=public,max-age=600", headers: auth))
            #expect(stored.text == "public #1\n")
            #expect(stored.context.provenance.source == .cache)
        }
    }
}
