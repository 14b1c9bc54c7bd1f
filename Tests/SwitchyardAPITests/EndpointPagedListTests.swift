import HTTPTypes
import Switchyard
import SwitchyardAPI
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// Typed paged lists: ``EndpointPageSource`` through an ``APIClient`` (department parameters,
/// envelopes, content types) against the loopback server's growing `/pages` lists.
@Suite struct EndpointPagedListTests {
    struct ListItem: Decodable, Sendable, Equatable {
        var id: Int
        var title: String
    }

    static let layout = JSONPageLayout(items: "data.items", id: "id", hasNext: "data.has_next", sizeParameter: "size")

    static func loader(_ api: APIClient, path: String, query: [QueryItem] = [])
        -> PageLoader<EndpointPageSource<ListItem>, Int>
    {
        var endpoint = Endpoint<Page<ListItem>>(.get, path, decoding: .page(layout))
        endpoint.query = query
        return PageLoader(
            source: EndpointPageSource(api: api, endpoint: endpoint, layout: layout), identity: { $0.id },
            rule: layout.hasNextRule, pageSize: 10)
    }

    @Test(arguments: TransportKind.allCases)
    func aGrowingListIsReadExactlyOnceAsTypedItems(_ kind: TransportKind) async throws {
        let rule = ParameterRule(scope: RequestScope(pathPrefixes: ["/pages"]), query: ["insert": .constant("2")])
        try await withAPI(kind, parameters: [rule]) { api, server in
            let loader = Self.loader(api, path: "/pages/typed", query: [QueryItem("total", "95")])
            var results = [await loader.loadFirst()]
            while await loader.hasNext, results.count < 50 { results.append(await loader.loadNext()) }
            #expect(results.map(\.duplicateCount) == [0] + Array(repeating: 2, count: 11))
            #expect(await loader.items.map(\.id) == Array(1...95))
            #expect(server.pageRequests(key: "typed") == Array(1...12))
        }
    }

    @Test func aFailingPageIsRolledBackThenLoaded() async throws {
        // Without the retry interceptor, so the 500 fails the load instead of being retried.
        try await withAPI(configuration: ClientConfiguration(retry: nil)) { api, server in
            let loader = Self.loader(api, path: "/pages/typed-fail", query: [QueryItem("fail", "3")])
            #expect(await loader.loadFirst().outcome.name == "succeeded")
            #expect(await loader.loadNext().outcome.name == "succeeded")
            let failed = await loader.loadNext()
            #expect(failed.page == 3)
            #expect(failed.error?.kind == .httpStatus)
            let retried = await loader.loadNext()
            #expect(retried.page == 3)
            #expect(retried.outcome.name == "succeeded")
            #expect(server.pageRequests(key: "typed-fail") == [1, 2, 3, 3])
        }
    }

    @Test func anEmptyListAnd204AreNoData() async throws {
        try await withAPI { api, _ in
            #expect(await Self.loader(api, path: "/pages/e/empty").loadFirst().outcome.name == "noData")
            #expect(await Self.loader(api, path: "/pages/n/no-content").loadFirst().outcome.name == "noData")
        }
    }

    @Test func aWrongItemsPathFailsTheLoadNamingThePath() async throws {
        try await withAPI { api, _ in
            let layout = JSONPageLayout(items: "data.list", id: "id", hasNext: "data.has_next")
            let source = EndpointPageSource<ListItem>(api: api, path: "/pages/wrong", layout: layout)
            let loader = PageLoader(source: source, identity: { $0.id }, rule: layout.hasNextRule, pageSize: 10)
            let result = await loader.loadFirst()
            #expect(result.error?.kind == .decoding)
            #expect(result.error?.message.hasPrefix("data.list: missing") == true, "\(result.error?.message ?? "")")
        }
    }
}
