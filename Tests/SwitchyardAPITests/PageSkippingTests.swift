import Switchyard
import SwitchyardAPI
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// A page with an item that does not decode: the strict default fails the page; with
/// `skippingInvalidElements` the item is left out and reported with its index and reason.
@Suite(.timeLimit(.minutes(3))) struct PageSkippingTests {
    static let layout = JSONPageLayout(items: "data.items", id: "id", hasNext: "data.has_next", sizeParameter: "size")
    static let json = #"{"data":{"items":[{"id":1,"title":"a"},{"id":"two","title":"b"},{"id":3,"title":"c"}],"has_next":false}}"#

    static func loader(_ api: APIClient, skipping: Bool) -> PageLoader<EndpointPageSource<Headline>, Int> {
        let endpoint = Endpoint<Page<Headline>>(.post, "/echo/body", decoding: .page(layout, skippingInvalidElements: skipping))
            .body(.bytes(Array(json.utf8), contentType: "application/json"))
        return PageLoader(
            source: EndpointPageSource(api: api, endpoint: endpoint, layout: layout), identity: { $0.id },
            rule: layout.hasNextRule, pageSize: 10)
    }

    @Test(arguments: TransportKind.allCases)
    func aBadItemIsSkippedAndReportedOrFailsThePage(kind: TransportKind) async throws {
        try await withAPI(kind) { api, _ in
            let forgiving = Self.loader(api, skipping: true)
            let result = await forgiving.loadFirst()
            #expect(result.outcome.name == "succeeded")
            #expect(await forgiving.items.map(\.id) == [1, 3])
            let skipped = result.decodingReport.skippedElements
            #expect(skipped.map(\.index) == [1])
            #expect(skipped.first?.path == "data.items")
            #expect(skipped.first?.reason.contains("id") == true)

            let strict = await Self.loader(api, skipping: false).loadFirst()
            #expect(strict.error?.kind == .decoding)
        }
    }
}
