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
    let search = searchPlugin(health: health)
    // doc:plugin-register
    try client.register(search)  // on a running client: the next call sees it
    for conflict in client.headerConflicts { print(conflict) }  // two departments setting one field
    // end
}

func unregisterSearch(from client: Client) throws {
    // doc:plugin-unregister
    try client.unregister(pluginNamed: "search")
    // end
}

// doc:plugin-own-declarations
/// Whether a search may be answered from the search team's fallback index.
enum SearchFallbackAllowed: RequestOptionKey {
    static let defaultValue = false
}

extension RequestOptions {
    /// Whether this request may be answered from the fallback index.
    var allowsSearchFallback: Bool {
        get { self[SearchFallbackAllowed.self] }
        set { self[SearchFallbackAllowed.self] = newValue }
    }
}

/// Published when a search is answered from the fallback index.
struct SearchFellBack: PluginEvent {
    var name: String { "searchFellBack" }
    let status: Int
    var detail: String { "origin answered \(status)" }
}

extension SwitchyardError.Kind {
    /// The search index is being rebuilt and the request did not allow the fallback.
    static let searchIndexRebuilding = Self(rawValue: "searchIndexRebuilding")
}
// end

/// The article's fallback plugin and a request that allows the fallback.
func searchFallbackPlugin() throws -> (Plugin, Request) {
    // doc:plugin-own-use
    let fallback = ClosureInterceptor(name: "search-fallback") { request, context, next in
        let response = try await next(request)
        guard response.head.status == .serviceUnavailable else { return response }
        guard request.options.allowsSearchFallback else {
            throw SwitchyardError(.searchIndexRebuilding, "Search is being reindexed; try again in a minute.")
        }
        context.publish(.plugin(SearchFellBack(status: response.head.status.code)), request: request)
        return Response(status: .ok, headerFields: [.contentType: "application/json"], body: Array("[]".utf8))
    }
    let searchFallback = Plugin(
        name: "search-fallback",
        scope: RequestScope(hosts: ["api.example.com"], pathPrefixes: ["/search"]),
        interceptors: [fallback],
        observers: [
            { event in
                if let fellBack = event.plugin(SearchFellBack.self) { print("fallback after", fellBack.status) }
            }
        ]
    )

    var request = try Request(url: "https://api.example.com/search?q=swift")
    request.options.allowsSearchFallback = true
    // end
    return (searchFallback, request)
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

    @Test func thePluginsOwnOptionEventAndErrorKindWorkAsTheArticleSays() async throws {
        let (plugin, allowed) = try searchFallbackPlugin()
        let rebuilding = ClosureTransport { _, _ in Response(status: .serviceUnavailable) }
        var configuration = ClientConfiguration(retry: nil, plugins: [plugin])
        configuration.popUps?.defaults.kinds[.searchIndexRebuilding] = "Search is being updated."
        let client = try Client(transport: rebuilding, configuration: configuration)
        let events = try #require(client.events).subscribe()

        // Allowed: the fallback answers and publishes the plugin's own event.
        let response = try await client.send(allowed)
        #expect(response.status == .ok && response.text == "[]")
        var fellBack: SearchFellBack?
        var failure: ExchangeEvent?
        for await event in events {
            if let event = event.plugin(SearchFellBack.self) { fellBack = event }
            if case .succeeded = event.kind { break }
        }
        #expect(fellBack?.status == 503)

        // Not allowed: the plugin's own kind, shown with the text the app's policy gives it.
        do throws(SwitchyardError) {
            _ = try await client.send(try Request(url: "https://api.example.com/search?q=swift"))
            Issue.record("the fallback answered a request that did not allow it")
        } catch {
            #expect(error.kind == .searchIndexRebuilding)
        }
        for await event in events {
            if case .failed = event.kind {
                failure = event
                break
            }
        }
        #expect(failure?.popUp?.message == "Search is being updated.")
    }
}
