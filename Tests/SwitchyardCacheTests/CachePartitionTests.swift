import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCache
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// Partitions, app-level lifetimes, size limits and cache-then-network.
@Suite(.timeLimit(.minutes(2)))
struct CachePartitionTests {
    @Test func oneUsersEntriesAreNeverServedToAnother() async throws {
        let cache = HTTPCache(partition: "alice")
        try await withCachingClient(.curl, cache: cache) { client, server in
            let path = "/cache/profile?max_age=600"
            let alice = try await client.send(try get(server, path))
            cache.partition = "bob"
            let bobOffline = await failure(of: client, try get(server, path, policy: .cacheOnly))
            #expect(bobOffline?.kind == .cacheMiss)
            let bob = try await client.send(try get(server, path))
            #expect(alice.text == "profile #1\n")
            #expect(bob.text == "profile #2\n")

            cache.partition = "alice"
            #expect(try await client.send(try get(server, path)).text == "profile #1\n")
            try await cache.removeAll(partition: "alice")  // sign-out
            let cleared = await failure(of: client, try get(server, path, policy: .cacheOnly))
            #expect(cleared?.kind == .cacheMiss)
            cache.partition = "bob"
            #expect(try await client.send(try get(server, path, policy: .cacheOnly)).text == "profile #2\n")
        }
    }

    @Test func appLifetimeMakesHeaderlessResponsesFresh() async throws {
        var configuration = CacheConfiguration()
        configuration.ttlRules = [CacheTTLRule(scope: RequestScope(pathPrefixes: ["/cache/catalog"]), ttl: .seconds(600))]
        try await withCachingClient(.curl, cache: HTTPCache(configuration: configuration)) { client, server in
            _ = try await client.send(try get(server, "/cache/catalog"))
            let second = try await client.send(try get(server, "/cache/catalog"))
            #expect(second.text == "catalog #1\n")
            #expect(second.context.provenance.source == .cache)
            _ = try await client.send(try get(server, "/cache/other"))
            #expect(try await client.send(try get(server, "/cache/other")).text == "other #2\n")
        }
    }

    @Test(arguments: [false, true])
    func oversizedBodiesPassThroughUncached(onDisk: Bool) async throws {
        var configuration = CacheConfiguration()
        configuration.maxEntryBytes = 1_000
        configuration.ttlRules = [CacheTTLRule(scope: .all, ttl: .seconds(600))]
        let store: any CacheStore = onDisk ? try DiskCacheStore(directory: temporaryDirectory()) : MemoryCacheStore()
        try await withCachingClient(.curl, cache: HTTPCache(store: store, configuration: configuration)) { client, server in
            for path in ["/bytes/5000", "/bytes/5000?framing=chunked"] {
                let first = try await client.send(try get(server, path))
                #expect(first.body.count == 5_000)
                let second = try await client.send(try get(server, path))
                #expect(second.body.count == 5_000)
                #expect(second.context.provenance == .network)
            }
            #expect(server.requestCount(path: "/bytes/5000") == 4)
            _ = try await client.send(try get(server, "/bytes/500?framing=chunked"))
            #expect(try await client.send(try get(server, "/bytes/500?framing=chunked")).context.provenance.source == .cache)
        }
    }

    @Test func aBodyAbandonedMidwayIsNotStoredAndLeavesNoTemporaryFile() async throws {
        var configuration = CacheConfiguration()
        configuration.ttlRules = [CacheTTLRule(scope: .all, ttl: .seconds(600))]
        let directory = temporaryDirectory()
        let cache = HTTPCache(store: try DiskCacheStore(directory: directory), configuration: configuration)
        try await withCachingClient(.curl, cache: cache) { client, server in
            let path = "/bytes/1000000?framing=chunked"
            do {
                let response = try await client.stream(try get(server, path))
                var iterator = response.body.makeAsyncIterator()
                _ = try await iterator.next()
            }
            let temporaryFiles = {
                ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix(".tmp-") }
            }
            #expect(await eventually { temporaryFiles().isEmpty })
            #expect(entryFiles(in: directory).isEmpty)
            let offline = await failure(of: client, try get(server, path, policy: .cacheOnly))
            #expect(offline?.kind == .cacheMiss)
        }
    }

    @Test func cacheThenNetworkYieldsTheStoredThenTheFreshResponse() async throws {
        try await withCachingClient(.curl, cache: HTTPCache()) { client, server in
            let path = "/cache/feed?max_age=600"
            var first: [String] = []
            for try await response in client.cacheThenNetwork(try get(server, path)) { first.append(response.text) }
            #expect(first == ["feed #1\n"])
            var sources: [ResponseProvenance.Source] = []
            var texts: [String] = []
            for try await response in client.cacheThenNetwork(try get(server, path)) {
                sources.append(response.context.provenance.source)
                texts.append(response.text)
            }
            #expect(sources == [.cache, .network])
            #expect(texts == ["feed #1\n", "feed #2\n"])
        }
    }

    @Test func aClientWithoutThePluginHasNoCacheLinkAndReportsNetwork() async throws {
        try await withCurlClient(configuration: ClientConfiguration()) { client, server in
            #expect(!client.chain.contains { $0.name.contains("Cache") })
            let response = try await client.send(try get(server, "/cache/plain?max_age=600"))
            #expect(response.context.provenance == .network)
        }
        let plugged = try Client(
            transport: TransportKind.curl.make(),
            configuration: ClientConfiguration(plugins: [.cache(HTTPCache())]))
        #expect(plugged.chain.contains { $0.name == "CacheInterceptor" })
    }

    @Test func headRequestsAreAnsweredFromTheStoredGet() async throws {
        try await withCachingClient(.curl, cache: HTTPCache()) { client, server in
            _ = try await client.send(try get(server, "/cache/head?max_age=600"))
            let head = try await client.send(try Request(method: .head, url: server.url("/cache/head?max_age=600")))
            #expect(head.body.isEmpty)
            #expect(head.context.provenance.source == .cache)
            #expect(server.requestCount(path: "/cache/head") == 1)
        }
    }
}
