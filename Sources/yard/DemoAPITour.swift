import HTTPTypes
import Switchyard
import SwitchyardAPI
import SwitchyardTestServer

/// The application-layer part of `yard demo`: an endpoint with sample data before the server
/// exists and against it, a paged list with overlapping pages and a failing page, a decoding
/// error that names its path, a list with a bad item skipped and reported, and a problem document.
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

        print("   e) a list with one bad item, decoded skipping what does not map, and saying which:")
        let list = #"{"data": {"items": [{"id": "a1"}, {"id": 2}, {"id": "c3"}]}}"#
        let forgiving = Endpoint<[WronglyTypedHeadline]>(.post, "/echo/body", at: "data.items", skippingInvalidElements: true)
            .body(.bytes(Array(list.utf8), contentType: "application/json"))
        if case .succeeded(let response) = await api.call(forgiving).result() {
            print("      ✓ \(response.value.map(\.id)) kept")
            for skipped in response.info.decodingReport.skippedElements {
                print("      skipped item \(skipped.index): \(skipped.reason)")
            }
        }

        print("   f) a failed call keeps what the server said (RFC 9457 problem+json):")
        let problem = #"{"title": "Not enough credit", "status": 403, "detail": "Your balance is 30, that costs 50.", "balance": 30}"#
        let refused = Endpoint<[Headline]>(.post, "/echo/body").query("status", 403)
            .body(.bytes(Array(problem.utf8), contentType: "application/problem+json"))
        if let error = await api.call(refused).result().error, let document = error.problem {
            print("      ✗ \(error.response?.status.code ?? 0): \(document.title ?? "") — \(document.detail ?? "")")
        }
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
        case .cancelled, .notStarted, .queued, .running, .waitingToRetry: print("      cancelled")
        }
    }
}
