import Switchyard
import SwitchyardAPI
import SwitchyardAuth
import SwitchyardCache
import SwitchyardCookies
import SwitchyardCurl
import SwitchyardObservability
import SwitchyardStreams
import SwitchyardTraffic
import SwitchyardTransfers

/// The model of the README's capabilities example.
private struct User: Decodable, Sendable {
    var id: Int
    var name: String
}

// README.md, "Every capability, briefly": compiled (it names example.com, so it is not run);
// `stats` and `session` are the app's, as in the README's prose.
func readmeCapabilities(stats: TimingStats, session: ExampleSession) async throws {
    var configuration = ClientConfiguration()  // redirects, retry, validation on
    configuration.plugins = [  // every plugin is a `Plugin.name(…)`
        .timingStats(stats),  // percentiles per endpoint template
        .cache(HTTPCache(store: MemoryCacheStore())),  // RFC 9111; .staleIfError per request
        .bearerAuth(AuthPlugin(scope: RequestScope(hosts: ["api.example.com"]), provider: session)),
        .cookies(CookieJar()),  // RFC 6265bis, curl's cookie files
        .concurrencyLimit(ConcurrencyLimiter(maxExchanges: 16, maxExchangesPerHost: 4))
    ]
    let client = try Client(transport: CurlTransport(), configuration: configuration)

    let api = try APIClient(client: client, baseURL: "https://api.example.com")  // calls as objects
    let profile = Endpoint<User>(.get, "/users/{id}", at: "data").parameter("id", 42)
    let user = try await api.value(profile)  // or api.call(profile): states, cancel

    let download = client.download(try Request(url: "https://example.com/big.iso"), to: "big.iso")
    download.start()  // pause(), resume(), progress
    for try await event in client.serverSentEvents(try Request(url: "https://api.example.com/updates")) {
        print(event.data, user.name)  // reconnects with Last-Event-ID
    }
}
