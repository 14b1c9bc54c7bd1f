import HTTPTypes
import Switchyard
import SwitchyardAPI
import Testing

// The Tour's "API objects and lists": the sample endpoint runs (no server needed) and its call
// succeeds with the sample's value; the mapped model and the paged list compile.
func readmeSampleEndpoint() async throws {
    struct User: Decodable, Sendable {
        var id: String
        var name: String
    }

    let profile = Endpoint<User>(.get, "/users/{id}", at: "data")
        .parameter("id", 42)
        .sample(json: #"{"data": {"id": "42", "name": "Ada"}}"#)

    // Samples run the screen before the API exists; later the same endpoint goes to the server.
    let api = try APIClient(client: Client(transport: SampleTransport(serving: [profile])), baseURL: "https://api.example.com")
    switch await api.call(profile).result() {
    case .succeeded(let response): print(response.value.name, response.info.decodingTime ?? .zero)
    case .noData: print("empty")  // 204, an empty body or null at the key path ([] is a value)
    case .failed(let error): print(error.message)  // "data.name: expected a string, found null"
    default: break
    }

    // Not in the article: the block prints whatever the call ends with, so the same call is made
    // again here and its outcome asserted.
    let outcome = await api.call(profile).result()
    guard case .succeeded(let response) = outcome else {
        Issue.record("the sample endpoint's call ended \(outcome.name), not with the sample: \(outcome)")
        return
    }
    #expect(response.value.id == "42" && response.value.name == "Ada")
}

struct Novel: JSONMapped {
    var title = ""
    var authors: [String] = []
    var subtitle: String?
    static let jsonMapping = JSONMapping<Novel>(
        .field(\.title, "info.book.title"),
        .field(\.authors, "info.book.authors[*].name"),
        .field(\.subtitle, "info.book.subtitle"))  // optional: absent or null → nil
}

struct Post: Decodable, Sendable {
    var id: Int
    var title: String
}

@MainActor
func readmePagedList(api: APIClient) -> PageListModel<EndpointPageSource<Post>, Int> {
    let layout = JSONPageLayout(items: "data.items", id: "id", hasNext: "data.has_next", sizeParameter: "size")
    let loader = PageLoader(
        source: EndpointPageSource<Post>(api: api, path: "/feed", layout: layout),
        identity: { $0.id }, rule: layout.hasNextRule, pageSize: 20)
    let list = PageListModel(loader: loader)  // @Observable; await list.loader.loadNext() at the end of the list
    return list
}

@Suite struct ReadmeAPIObjectsTests {
    @Test func theSampleEndpointRuns() async throws {
        try await readmeSampleEndpoint()
    }

    @Test func theMappedModelDecodes() throws {
        let json = #"{"info": {"book": {"title": "Dune", "authors": [{"name": "Frank Herbert"}]}}}"#
        let novel = try JSONDecoding.standard.decode(Novel.self, from: Array(json.utf8))
        #expect(novel?.title == "Dune" && novel?.authors == ["Frank Herbert"] && novel?.subtitle == nil)
    }
}
