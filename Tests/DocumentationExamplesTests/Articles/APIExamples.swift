import HTTPTypes
import Switchyard
import SwitchyardAPI
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

// Layers/API/SwitchyardAPI.docc/APIObjectsAndPagedLists.md, run against the loopback
// server (/echo for calls, /pages/{key} for lists).

// doc:api-endpoint
struct Echo: Decodable, Sendable {
    var method: String
    var uri: String
}

enum Shop {
    static func order(_ id: Int) -> Endpoint<Echo> {
        Endpoint<Echo>(.get, "/echo/orders/{id}")
            .parameter("id", id)
            .query("expand", "items")
            .timeout(.seconds(60))
            .tags("orders")
    }
}
// end

struct Item: Decodable, Sendable {
    var id: Int
    var title: String
}

func apiCalls(baseURL: String) async throws -> (Echo, String) {
    // doc:api-call
    let api = try APIClient(client: Client(transport: CurlTransport()), baseURL: baseURL)
    let order = try await api.value(Shop.order(42))  // throws a SwitchyardError
    print(order.uri)  // /echo/orders/42?expand=items

    let handle = api.call(Shop.order(43))  // started; handle.cancel() from anywhere
    switch await handle.result() {
    case .succeeded(let response): print(response.value.uri, response.info.head.status)
    case .noData: print("nothing to show")
    case .failed(let error): print(error.kind, error.message)
    default: print("cancelled")
    }
    // end
    return (order, "\(handle.state)")
}

// doc:api-states
func caption(for state: CallState<Echo>) -> String {
    switch state {
    case .notStarted: "Not started"
    case .queued: "Waiting for a free connection…"
    case .running: "Loading…"
    case .waitingToRetry(let attempt, let delay): "Trying again (attempt \(attempt)) in \(delay ?? .zero)"
    case .succeeded(let response): "Order \(response.value.uri)"
    case .noData: "Nothing to show"
    case .failed(let error): error.message
    case .cancelled: "Cancelled"
    }
}
// end

func apiPagedList(api: APIClient) async -> [Item] {
    // doc:api-pages
    let layout = JSONPageLayout(items: "data.items", id: "id", hasNext: "data.has_next", sizeParameter: "size")
    let loader = PageLoader(
        source: EndpointPageSource<Item>(api: api, path: "/pages/articles", layout: layout),
        identity: { $0.id }, rule: layout.hasNextRule, pageSize: 20)
    _ = await loader.loadFirst()
    while await loader.hasNext {  // "load more" at the end of the list
        let result = await loader.loadNext()  // one load at a time; a failed page rolls back
        if result.error != nil { break }
    }
    let items = await loader.items  // de-duplicated, in order
    // end
    return items
}

@Suite struct APIExamples {
    @Test func callsAndListsRun() async throws {
        try await withLoopbackServer { server in
            let (order, _) = try await apiCalls(baseURL: server.baseURL)
            #expect(order.uri == "/echo/orders/42?expand=items")
            let api = try APIClient(client: Client(transport: CurlTransport()), baseURL: server.baseURL)
            #expect(await apiPagedList(api: api).count == 95)
            #expect(caption(for: .waitingToRetry(attempt: 2, delay: .seconds(1))) == "Trying again (attempt 2) in 1.0 seconds")
            #expect(caption(for: .queued) == "Waiting for a free connection…")
        }
    }
}
