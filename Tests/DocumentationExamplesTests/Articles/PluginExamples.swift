import HTTPTypes
import Switchyard
import Synchronization
import Testing

// Sources/Switchyard/Switchyard.docc/WriteADepartmentPlugin.md, run over an in-memory transport
// that echoes the request's headers.

// doc:plugin-observer
/// What the search team wants to know about its own requests.
final class SearchHealth: Sendable {
    private let counts = Mutex((calls: 0, failures: 0))

    func record(_ event: ExchangeEvent) {
        switch event.kind {
        case .succeeded: counts.withLock { $0.calls += 1 }
        case .failed:
            counts.withLock {
                $0.calls += 1
                $0.failures += 1
            }
        default: break
        }
    }

    var failureRate: Double {
        counts.withLock { $0.calls == 0 ? 0 : Double($0.failures) / Double($0.calls) }
    }
}
// end

func searchPlugin(health: SearchHealth) -> Plugin {
    // doc:plugin-scope
    let scope = RequestScope(hosts: ["api.example.com"], pathPrefixes: ["/search"])
    // end
    // doc:plugin-interceptor
    let attemptHeader = ClosureInterceptor(name: "search-attempt") { request, context, next in
        var request = request
        request.head.headerFields[.init("X-Search-Attempt")!] = String(context.attempt)
        return try await next(request)
    }
    // end
    // doc:plugin-assemble
    let search = Plugin(
        name: "search",
        scope: scope,
        position: .attempt,  // once per attempt: sees every retry
        placement: .inOrder,  // or .after("signing"): inside a registered plugin
        headerRules: [
            .set("X-Team", "search"),
            .set("X-Search-Session") { _, context in "s-\(context.id)" }
        ],
        interceptors: [attemptHeader],
        observers: [{ event in health.record(event) }]
    )
    // end
    return search
}

func registerSearch(on client: Client, health: SearchHealth) throws {
    // doc:plugin-register
    try client.register(searchPlugin(health: health))  // on a running client: the next call sees it
    for conflict in client.headerConflicts { print(conflict) }  // two departments setting one field
    // end
}

func unregisterSearch(from client: Client) throws {
    // doc:plugin-unregister
    try client.unregister(pluginNamed: "search")
    // end
}

@Suite struct PluginExamples {
    static let echoHeaders = ClosureTransport { request, _ in
        let fields = request.head.headerFields.map { "\($0.name.rawName)=\($0.value)" }.sorted()
        return Response(status: .ok, body: Array(fields.joined(separator: ";").utf8))
    }

    @Test func thePluginHeadersOnlyItsScopeAndObservesIt() async throws {
        let health = SearchHealth()
        let client = try Client(transport: Self.echoHeaders, configuration: ClientConfiguration())
        try registerSearch(on: client, health: health)
        let inScope = try await client.send(try Request(url: "https://api.example.com/search?q=swift")).text
        #expect(inScope.contains("X-Team=search") && inScope.contains("X-Search-Attempt=1") && inScope.contains("X-Search-Session=s-"))
        let outOfScope = try await client.send(try Request(url: "https://api.example.com/users/1")).text
        #expect(!outOfScope.contains("X-Team"))
        #expect(health.failureRate == 0)
        try unregisterSearch(from: client)
        #expect(!(try await client.send(try Request(url: "https://api.example.com/search")).text.contains("X-Team")))
    }
}
