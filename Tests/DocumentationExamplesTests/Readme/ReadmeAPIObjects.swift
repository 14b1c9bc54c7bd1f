import HTTPTypes
import Switchyard
import SwitchyardAPI
import Testing

// README.md, "API objects and lists": the sample endpoint runs (no server needed), the mapped
// model and the paged list compile.
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
