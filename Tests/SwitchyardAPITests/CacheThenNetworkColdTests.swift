import HTTPTypes
import Switchyard
import SwitchyardAPI
import SwitchyardCache
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// Cache-then-network for API calls and paged lists on an empty cache, with the standard status
/// validation and the pop-up policy on: a cache miss is not a failure, and the network is asked once.
@Suite(.timeLimit(.minutes(3))) struct CacheThenNetworkColdTests {
    static func configuration(_ bus: EventBus) -> ClientConfiguration {
        ClientConfiguration(events: bus, validation: StatusValidation(), retry: nil, plugins: [.cache(HTTPCache())])
    }

    @Test(arguments: TransportKind.allCases)
    func aColdCallPublishesNoFailure(kind: TransportKind) async throws {
        let bus = EventBus()
        let events = CollectedEvents(bus)
        try await withAPI(kind, configuration: Self.configuration(bus)) { api, server in
            let feed = Endpoint<String>(.get, "/cache/cold-call", decoding: .text).query("max_age", 60)
            var seen: [String] = []
            for await state in api.cacheThenNetwork(feed) { seen.append(CacheThenNetworkAPITests.label(state)) }
            #expect(seen == ["succeeded network cold-call #1"])
            #expect(server.requestCount(path: "/cache/cold-call") == 1)
            #expect(events.count("failed") == 0)
            #expect(events.worthyPopUps.isEmpty)

            // Stored: the stored answer, then the network's.
            var warm: [String] = []
            for await state in api.cacheThenNetwork(feed) { warm.append(CacheThenNetworkAPITests.label(state)) }
            #expect(warm == ["succeeded cache cold-call #1", "succeeded network cold-call #2"])

            // A cold call whose network fails ends in that failure, asked once.
            server.setCacheMode(.status(503), key: "cold-down")
            let down = Endpoint<String>(.get, "/cache/cold-down", decoding: .text)
            var failed: [String] = []
            for await state in api.cacheThenNetwork(down) { failed.append(CacheThenNetworkAPITests.label(state)) }
            #expect(failed == ["failed"])
            #expect(server.requestCount(path: "/cache/cold-down") == 1)
            #expect(events.count("failed") == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aColdPagedListPublishesNoFailure(kind: TransportKind) async throws {
        let bus = EventBus()
        let events = CollectedEvents(bus)
        try await withAPI(kind, configuration: Self.configuration(bus)) { api, server in
            let key = "cold-pages"
            let source = EndpointPageSource<Headline>(
                api: api, path: "/pages/\(key)?max_age=60", layout: CacheThenNetworkAPITests.layout)
            let result = await CacheThenNetworkAPITests.loader(source.cacheThenNetwork()).loadFirst()
            #expect(result.source == .network)
            #expect(result.itemCount == 10)
            #expect(server.pageRequests(key: key) == [1])
            #expect(events.count("failed") == 0)
            #expect(events.worthyPopUps.isEmpty)

            // Stored: the stored page at once, then the network's.
            let again = await CacheThenNetworkAPITests.loader(source.cacheThenNetwork()).loadFirst()
            #expect(again.source == .network)
            #expect(server.pageRequests(key: key) == [1, 1])
            #expect(events.count("failed") == 0)
        }
    }
}
