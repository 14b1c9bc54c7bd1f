import Switchyard
import SwitchyardCache
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// The README's cache example (an offline-capable screen), compiled and run against the loopback server.
@Suite(.timeLimit(.minutes(2)))
struct CacheReadmeExampleTests {
    /// The example, as the README shows it, with the server's URL for the API's.
    struct FeedScreen {
        let client: Client
        let url: String

        /// Fresh data when the network answers; the stored copy, with a banner, when it does not.
        func load() async throws -> (text: String, banner: String?) {
            var request = try Request(url: url)
            request.options.cachePolicy = .staleIfError
            let response = try await client.send(request)
            let provenance = response.context.provenance
            let minutes = (provenance.age?.components.seconds ?? 0) / 60
            let banner = provenance.source == .stale ? "Offline: showing data from \(minutes) minutes ago" : nil
            return (response.text, banner)
        }
    }

    @Test func anOfflineCapableScreenShowsTheStoredFeedWithABanner() async throws {
        let directory = temporaryDirectory()
        let cache = HTTPCache(store: try DiskCacheStore(directory: directory))
        let client = try Client(
            transport: CurlTransport(),
            configuration: ClientConfiguration(
                retry: nil, plugins: [.cache(cache)]))
        cache.partition = "user-42"  // on sign-in

        let server = try await LoopbackServer.start()
        let screen = FeedScreen(client: client, url: server.url("/cache/feed?max_age=0"))
        let online = try await screen.load()
        #expect(online.text == "feed #1\n")
        #expect(online.banner == nil)

        try await server.shutdown()  // offline
        let refusing = try RefusingPort(port: server.port)  // and stays so: no other test's server takes the port
        defer { refusing.close() }
        let offline = try await screen.load()
        #expect(offline.text == "feed #1\n")
        #expect(offline.banner == "Offline: showing data from 0 minutes ago")

        try await cache.removeAll(partition: "user-42")  // on sign-out
        #expect(await failure(of: client, try Request(url: screen.url)) != nil)
    }
}
