import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCurl
import SwitchyardStreams
import SwitchyardTestServer
import SwitchyardTestSupport
import Synchronization
import Testing

/// README.md's event-stream example, its URLs answered by the loopback server.
@Suite(.timeLimit(.minutes(2)))
struct StreamsReadmeExampleTests {
    struct Item: Decodable, Sendable { let n: Int }

    @Test func theReadmeExampleReadsEventsAndLines() async throws {
        let printed = Mutex<[String]>([])
        func print(_ parts: String...) { printed.withLock { $0.append(parts.joined(separator: " ")) } }
        let saved = Mutex<[Int]>([])
        func save(_ item: Item) { saved.withLock { $0.append(item.n) } }
        try await withLoopbackServer { server in
            // The README's URLs, answered by the loopback server's routes.
            let routes: [String: String] = [
                "/updates": "/events/readme?total=2&retry=1", "/export.ndjson": "/ndjson?count=3"
            ]
            let rewrite = ClosureInterceptor { request, _, next in
                var request = request
                if let path = request.head.path, let target = routes[path] {
                    let fields = request.head.headerFields
                    request = try Request(url: server.url(target))
                    request.head.headerFields = fields  // Accept, Last-Event-ID

                }
                return try await next(request)
            }
            let client = Client(transport: CurlTransport(), interceptors: [rewrite])
            for try await event in client.serverSentEvents(try Request(url: "https://api.example.com/updates")) {
                print(event.type, event.data, event.lastEventID ?? "-")
            }
            let export = try await client.stream(try Request(url: "https://api.example.com/export.ndjson"))
            for try await item in export.body.jsonLines(of: Item.self) { save(item) }
        }
        #expect(printed.withLock { $0 } == ["message event 1 1", "message event 2 2"])
        #expect(saved.withLock { $0 } == [1, 2, 3])
    }
}
