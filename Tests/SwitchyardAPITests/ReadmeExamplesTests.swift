import HTTPTypes
import Switchyard
import SwitchyardAPI
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

// The README's "API objects and lists" examples, compiled and run here (against the loopback
// server instead of api.example.com), so the README cannot drift from the code.

// --- README: an endpoint with sample data ---
struct User: Decodable, Sendable {
    var id: String
    var name: String
}

let profile = Endpoint<User>(.get, "/users/{id}", at: "data")
    .parameter("id", 42)
    .sample(json: #"{"data": {"id": "42", "name": "Ada"}}"#)

func showProfile(_ api: APIClient) async -> String {
    let handle = api.call(profile)  // running; handle.cancel() from anywhere stops it
    switch await handle.result() {
    case .succeeded(let response): return response.value.name  // response.info: status, headers, timings
    case .noData: return "(empty)"
    case .failed(let error): return "\(error.kind): \(error.message)"
    default: return "(cancelled)"
    }
}

// --- README: a mapped model ---
struct Novel: JSONMapped {
    var title = ""
    var authors: [String] = []
    var price = 0.0
    var subtitle: String?

    static let jsonMapping = JSONMapping<Novel>(
        .field(\.title, "info.book.title"),
        .field(\.authors, "info.book.authors[*].name"),
        .field(\.price, "price.amount"),
        .field(\.subtitle, "info.book.subtitle"))  // optional: absent or null → nil
}

// --- README: a paged list driven from a view model ---
struct Post: Decodable, Sendable {
    var id: Int
    var title: String
}

@MainActor
final class FeedViewModel {
    let list: PageListModel<EndpointPageSource<Post>, Int>  // @Observable: a view renders list.state

    init(api: APIClient, path: String = "/feed") {
        let layout = JSONPageLayout(items: "data.items", id: "id", hasNext: "data.has_next", sizeParameter: "size")
        let source = EndpointPageSource<Post>(api: api, path: path, layout: layout)
        list = PageListModel(loader: PageLoader(source: source, identity: { $0.id }, rule: layout.hasNextRule, pageSize: 20))
    }

    func appear() async { await list.loader.loadFirst() }
    func reachedEnd() async { await list.loader.loadNext() }  // a failed page was rolled back: this retries it
    func pulledToRefresh() async { await list.loader.refresh() }
}

@Suite struct ReadmeExamplesTests {
    @Test func theSampleEndpointAnswersBeforeTheServerExists() async throws {
        let offline = try APIClient(
            client: Client(transport: SampleTransport(serving: [profile]), interceptors: []),
            baseURL: "https://api.example.com")
        #expect(await showProfile(offline) == "Ada")
        try await withAPI { live, _ in
            // The embedded server has no /users route: the same endpoint gets a typed error, not a crash.
            #expect(await showProfile(live).hasPrefix("httpStatus"))
        }
    }

    @Test func theMappedModelDecodes() throws {
        let json = #"{"info": {"book": {"title": "Dune", "authors": [{"name": "Frank Herbert"}]}}, "price": {"amount": 9.5}}"#
        let novel = try JSONDecoding.standard.decode(Novel.self, from: Array(json.utf8))
        #expect(novel?.authors == ["Frank Herbert"])
        #expect(novel?.subtitle == nil)
    }

    @Test func theViewModelPagesThroughAList() async throws {
        try await withLoopbackServer { server in
            let api = try APIClient(client: Client(transport: CurlTransport(), interceptors: []), baseURL: server.baseURL)
            let model = await FeedViewModel(api: api, path: "/pages/readme")
            await model.appear()
            while await model.list.loader.hasNext { await model.reachedEnd() }
            #expect(await model.list.loader.items.count == 95)
        }
    }
}
