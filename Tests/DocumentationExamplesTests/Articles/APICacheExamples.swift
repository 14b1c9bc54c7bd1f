import Switchyard
import SwitchyardAPI
import SwitchyardCache
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

// The cache-then-network example of Layers/API/SwitchyardAPI.docc/APIObjectsAndPagedLists.md,
// with the HTTP cache in the chain.

func apiCacheThenNetwork(api: APIClient) async -> [String] {
    var sources: [String] = []
    // doc:api-cache-then-network
    for await state in api.cacheThenNetwork(Shop.order(44)) {
        if case .succeeded(let response) = state { print(response.info.source, response.value.uri) }  // cache, then network
    }
    // end
    for await state in api.cacheThenNetwork(Shop.order(44)) {
        if case .succeeded(let response) = state { sources.append("\(response.info.source)") }
    }
    return sources
}

@Suite struct APICacheExamples {
    @Test func cacheThenNetworkRuns() async throws {
        try await withLoopbackServer { server in
            let client = try Client(
                transport: CurlTransport(),
                configuration: ClientConfiguration(plugins: [.cache(HTTPCache())]))
            let api = try APIClient(client: client, baseURL: server.baseURL)
            // The second stage always asks the network.
            #expect(await apiCacheThenNetwork(api: api).last == "network")
        }
    }
}
