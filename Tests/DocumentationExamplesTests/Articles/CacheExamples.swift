import HTTPTypes
import Switchyard
import SwitchyardCache
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

// Plugins/Cache/SwitchyardCache.docc/CachingAndOffline.md, run against the loopback server's
// /cache/{key} routes.

func cachingClient() throws -> (Client, HTTPCache) {
    // doc:cache-setup
    let cache = HTTPCache(store: MemoryCacheStore())  // or DiskCacheStore(directory:) to survive launches
    var configuration = ClientConfiguration()
    configuration.plugins = [.cache(cache)]
    let client = try Client(transport: CurlTransport(), configuration: configuration)
    cache.partition = "user-42"  // on sign-in: each user their own entries
    // end
    return (client, cache)
}

func cachedFeed(client: Client, url: String) async throws -> (text: String, offline: Bool) {
    // doc:cache-stale-if-error
    var request = try Request(url: url)
    request.options.cachePolicy = .staleIfError  // the stored copy when the network fails
    let response = try await client.send(request)
    let provenance = response.context.provenance  // network, cache, revalidated or stale, and its age
    let offline = provenance.source == .stale
    // end
    return (response.text, offline)
}

func cacheWithNetworkTimeout() -> HTTPCache {
    // doc:cache-network-timeout
    var configuration = CacheConfiguration()
    configuration.networkTimeout = .seconds(3)  // a stored copy after 3 s without an answer
    let cache = HTTPCache(store: MemoryCacheStore(), configuration: configuration)
    // end
    return cache
}

func cacheOnly(client: Client, url: String) async throws -> String? {
    // doc:cache-only
    var request = try Request(url: url)
    request.options.cachePolicy = .cacheOnly
    do {
        return try await client.send(request).text
    } catch {
        guard error.kind == .cacheMiss else { throw error }
        return nil  // nothing stored: show a placeholder
    }
    // end
}

func cacheThenNetwork(client: Client, url: String) async throws -> [String] {
    // doc:cache-then-network
    var shown: [String] = []
    for try await response in client.cacheThenNetwork(try Request(url: url)) {
        shown.append(response.text)  // the stored copy first (if any), then the network's
    }
    // end
    return shown
}

func signOut(cache: HTTPCache) async throws {
    // doc:cache-sign-out
    try await cache.removeAll(partition: "user-42")  // on sign-out
    // end
}

@Suite struct CacheExamples {
    @Test func theOfflineScreenRuns() async throws {
        try await withLoopbackServer { server in
            let (client, cache) = try cachingClient()
            let url = server.url("/cache/docs-feed?max_age=0")
            #expect(try await cacheOnly(client: client, url: url) == nil)
            let first = try await cachedFeed(client: client, url: url)
            #expect(!first.offline)
            _ = try await client.send(try Request(url: server.url("/cache-mode/docs-feed/503")))
            let second = try await cachedFeed(client: client, url: url)
            #expect(second.offline && second.text == first.text)
            #expect(try await cacheOnly(client: client, url: url) == first.text)
            try await signOut(cache: cache)
            #expect(try await cacheOnly(client: client, url: url) == nil)
            _ = try await client.send(try Request(url: server.url("/cache-mode/docs-feed/ok")))
            #expect(try await cacheThenNetwork(client: client, url: url).count >= 1)
            #expect(cacheWithNetworkTimeout().configuration.networkTimeout == .seconds(3))
        }
    }
}
