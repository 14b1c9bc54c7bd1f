import HTTPTypes
import Switchyard
import SwitchyardAPI
import SwitchyardTestServer

/// The application-layer part of `yard demo`: an endpoint with sample data before the server
/// exists and against it, a paged list with overlapping pages and a failing page, and a decoding
/// error that names its path.
struct DemoAPITour {
    let server: LoopbackServer
    let transportName: String
    let client: Client

    /// One headline of the embedded server's `/pages/{list}` lists.
    struct Headline: Decodable, Sendable {
        var id: Int
        var title: String
    }

    /// The same list read with the wrong model: the server's ids are numbers.
    struct WronglyTypedHeadline: Decodable, Sendable {
        var id: String
    }

    static let layout = JSONPageLayout(items: "data.items", id: "id", hasNext: "data.has_next", sizeParameter: "size")

    func run() async throws {
        let headlines = Endpoint<[Headline]>(.get, "/pages/{list}", at: "data.items")
            .parameter("list", "headlines-\(transportName)")
            .query("size", 3)
            .sample(json: #"{"data": {"items": [{"id": 1, "title": "Sample headline"}], "has_next": false}}"#)

        print("   a) before the API exists, the endpoint answers from its sample:")
        let samples = try APIClient(client: Client(transport: SampleTransport(serving: [headlines])), baseURL: server.baseURL)
        await show(samples.call(headlines))
        print("   b) the same endpoint against the embedded server:")
        let api = try APIClient(client: client, baseURL: server.baseURL)
        await show(api.call(headlines))

        print("   c) a paged list whose server inserts 2 items on top before each page; page 3 fails once:")
        let page = Endpoint<Page<Headline>>(.get, "/pages/{list}", decoding: .page(Self.layout))
            .parameter("list", "feed-\(transportName)")
            .query("insert", 2).query("fail", 3)
            .retrying(.disabled)  // let the failure reach the list, which rolls the page back
        let loader = PageLoader(
            source: EndpointPageSource(api: api, endpoint: page, layout: Self.layout),
            identity: { $0.id }, rule: Self.layout.hasNextRule, pageSize: 10)
        var result = await loader.loadFirst()
        var loads = 1
        while true {
            let outcome = result.error.map { "failed (\($0.kind.rawValue)), rolled back" } ?? result.outcome.name
            print("      page \(result.page): \(outcome), \(result.newItemCount) new, \(result.duplicateCount) duplicates")
            guard await loader.hasNext || result.error != nil, loads < 20 else { break }
            result = await loader.loadNext()
            loads += 1
        }
        print("      \(await loader.items.count) unique items in \(loads) loads")

        print("   d) a model that does not match the JSON fails with the path, not a crash:")
        let wrong = Endpoint<[WronglyTypedHeadline]>(.get, "/pages/{list}", at: "data.items").parameter("list", "wrong")
        await show(api.call(wrong))
    }

    private func show<Value: Sendable>(_ handle: CallHandle<Value>) async {
        switch await handle.result() {
        case .succeeded(let response):
            let count = (response.value as? [Headline])?.count ?? 1
            let first = (response.value as? [Headline])?.first?.title ?? ""
            let decoding = response.info.decodingTime.map { DemoTour.format($0) } ?? "–"
            print("      ✓ \(count) item(s), first “\(first)”, decoded in \(decoding)")
        case .noData: print("      ✓ no data")
        case .failed(let error): print("      ✗ \(error.kind.rawValue): \(error.message)")
        case .cancelled, .notStarted, .running: print("      cancelled")
        }
    }
}
