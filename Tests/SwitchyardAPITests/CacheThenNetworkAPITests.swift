import HTTPTypes
import Switchyard
import SwitchyardAPI
import SwitchyardActivity
import SwitchyardCache
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// Where API calls and pages came from, and cache-then-network for `APIClient` calls and
/// `PageLoader`s, against the loopback server with the HTTP cache in the chain.
@Suite(.timeLimit(.minutes(3))) struct CacheThenNetworkAPITests {
    static func cached() -> ClientConfiguration {
        ClientConfiguration(retry: nil, plugins: [.cache(HTTPCache())])
    }

    static let layout = JSONPageLayout(items: "data.items", id: "id", hasNext: "data.has_next", sizeParameter: "size")

    static func loader(_ source: EndpointPageSource<Headline>) -> PageLoader<EndpointPageSource<Headline>, Int> {
        PageLoader(source: source, identity: { $0.id }, rule: layout.hasNextRule, pageSize: 10)
    }

    /// `succeeded cache ctn #1`: a final call state with its source and value.
    static func label(_ state: CallState<String>) -> String {
        guard case .succeeded(let response) = state else { return state.name }
        return "succeeded \(response.info.source) \(response.value.split(separator: "\n").joined())"
    }

    @Test(arguments: TransportKind.allCases)
    func aCallGetsTheStoredAnswerThenTheNetworks(kind: TransportKind) async throws {
        try await withAPI(kind, configuration: Self.cached()) { api, server in
            let key = "ctn-\(kind)"
            let feed = Endpoint<String>(.get, "/cache/\(key)", decoding: .text).query("max_age", 60)
            let stored = try await api.value(feed)
            #expect(stored == "\(key) #1\n")
            var seen: [String] = []
            for await state in api.cacheThenNetwork(feed) { seen.append(Self.label(state)) }
            #expect(seen == ["succeeded cache \(key) #1", "succeeded network \(key) #2"])
            // Nothing stored: only the network's answer.
            let fresh = Endpoint<String>(.get, "/cache/\(key)-miss", decoding: .text)
            var missed: [String] = []
            for await state in api.cacheThenNetwork(fresh) { missed.append(Self.label(state)) }
            #expect(missed == ["succeeded network \(key)-miss #1"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func pagesSayWhetherTheyCameFromTheNetworkTheCacheOrAStaleEntry(kind: TransportKind) async throws {
        try await withAPI(kind, configuration: Self.cached()) { api, server in
            let fresh = EndpointPageSource<Headline>(api: api, path: "/pages/fresh-\(kind)?max_age=60", layout: Self.layout)
            let first = await Self.loader(fresh).loadFirst()
            #expect(first.source == .network)
            let again = Self.loader(fresh)
            #expect(await again.loadFirst().source == .cache)
            #expect(await again.lastPageSource == .cache)
            #expect(server.pageRequests(key: "fresh-\(kind)") == [1])

            let stale = EndpointPageSource<Headline>(api: api, path: "/pages/stale-\(kind)?max_age=0", layout: Self.layout)
            #expect(await Self.loader(stale).loadFirst().source == .network)
            let offline = EndpointPageSource<Headline>(
                api: api, endpoint: stale.endpoint.options { $0.cachePolicy = .cacheOnly }, layout: Self.layout)
            let result = await Self.loader(offline).loadFirst()
            #expect(result.source == .stale)
            #expect(result.itemCount == 10)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aPagedListShowsTheStoredFirstPageThenTheNetworks(kind: TransportKind) async throws {
        try await withAPI(kind, configuration: Self.cached()) { api, server in
            let key = "ctn-pages-\(kind)"
            // Two new items go to the list's top before page 2: the network's first page then differs
            // from the stored one.
            let source = EndpointPageSource<Headline>(api: api, path: "/pages/\(key)?max_age=60&insert=2", layout: Self.layout)
            let primer = Self.loader(source)
            #expect(await primer.loadFirst().source == .network)
            #expect(await primer.loadNext().source == .network)

            let loader = Self.loader(source.cacheThenNetwork())
            let states = await loader.states()
            let result = await loader.loadFirst()
            #expect(result.source == .network)
            var seen: [String] = []
            for await state in states {
                seen.append("\(state.name) \(state.items.first?.id ?? 0)")
                if state.phase.isFinal { break }
            }
            // Item 1 heads the stored page; the network's page starts with the two new items (97, 96).
            #expect(seen == ["notStarted 0", "running 0", "running 1", "succeeded 97"])
            #expect(server.pageRequests(key: key) == [1, 2, 1])
        }
    }
}
