import HTTPTypes
import Switchyard
import Synchronization
import Testing

/// How a ``ClientConfiguration`` becomes a chain: order, plugin scopes and placements, observers.
@Suite struct ChainAssemblyTests {
    /// Records the order interceptors ran in.
    final class Trace: Sendable {
        private let names = Lock<[String]>([])
        var all: [String] { names.withLock { $0 } }
        func interceptor(_ name: String) -> ClosureInterceptor {
            ClosureInterceptor(name: name) { request, _, next in
                self.names.withLock { $0.append(name) }
                return try await next(request)
            }
        }
    }

    static let okTransport = ClosureTransport { _, _ in Response(status: .ok, body: Array("ok".utf8)) }

    @Test func theChainListsBuiltInsPluginsAndAppInterceptorsInTheDocumentedOrder() throws {
        let trace = Trace()
        let configuration = ClientConfiguration(
            plugins: [
                Plugin(name: "signing", position: .attempt, interceptors: [trace.interceptor("sign")]),
                Plugin(name: "headers", interceptors: [trace.interceptor("department")])
            ],
            callInterceptors: [trace.interceptor("app-call")],
            attemptInterceptors: [trace.interceptor("app-attempt")])
        let client = try Client(transport: Self.okTransport, configuration: configuration)
        #expect(
            client.chain.map(\.name)
                == [
                    "EventsInterceptor", "PopUpInterceptor", "app-call", "department", "RedirectInterceptor",
                    "RetryInterceptor", "sign", "app-attempt", "ClosureTransport"
                ])
        #expect(client.chain.map(\.position) == [.call, .call, .call, .call, .call, .call, .attempt, .attempt, .attempt])
        #expect(client.chain[0].origin == .plugin("events"))
        #expect(client.chain[3].origin == .plugin("headers"))
        #expect(client.chain.last?.origin == .transport)
    }

    @Test func placementsMovePluginsAndImpossibleOnesAreReported() throws {
        let trace = Trace()
        let plugins = [
            Plugin(name: "a", interceptors: [trace.interceptor("a")]),
            Plugin(name: "b", interceptors: [trace.interceptor("b")]),
            Plugin(name: "c", placement: .before("a"), interceptors: [trace.interceptor("c")])
        ]
        let client = try Client(
            transport: Self.okTransport,
            configuration: ClientConfiguration(redirects: nil, retry: nil, plugins: plugins))
        #expect(
            client.chain.compactMap { if case .plugin(let name) = $0.origin { name } else { nil } } == ["events", "popUps", "c", "a", "b"])

        let duplicate = [Plugin(name: "a"), Plugin(name: "a")]
        #expect(throws: PluginConfigurationError.duplicateName("a")) {
            try Client(transport: Self.okTransport, configuration: ClientConfiguration(plugins: duplicate))
        }
        let unknown = [Plugin(name: "a", placement: .after("missing"))]
        #expect(throws: PluginConfigurationError.unknownPlacementTarget(plugin: "a", target: "missing", position: .call)) {
            try Client(transport: Self.okTransport, configuration: ClientConfiguration(plugins: unknown))
        }
        let cycle = [Plugin(name: "a", placement: .before("b")), Plugin(name: "b", placement: .before("a"))]
        #expect(throws: PluginConfigurationError.placementCycle(["a", "b"])) {
            try Client(transport: Self.okTransport, configuration: ClientConfiguration(plugins: cycle))
        }
        let acrossPositions = [Plugin(name: "a", position: .attempt), Plugin(name: "b", placement: .after("a"))]
        #expect(throws: PluginConfigurationError.self) {
            try Client(transport: Self.okTransport, configuration: ClientConfiguration(plugins: acrossPositions))
        }
    }

    @Test func aPluginSeesOnlyRequestsAndEventsInItsScope() async throws {
        let trace = Trace()
        let seen = Lock<[String]>([])
        let payments = Plugin(
            name: "payments", scope: RequestScope(hosts: ["pay.example.com"]),
            interceptors: [trace.interceptor("payments")],
            observers: [{ event in seen.withLock { $0.append("\(event.kind.name) \(event.request.authority ?? "")") } }])
        let client = try Client(transport: Self.okTransport, configuration: ClientConfiguration(plugins: [payments]))
        _ = try await client.send(try Request(url: "https://pay.example.com/charge"))
        _ = try await client.send(try Request(url: "https://shop.example.com/cart"))
        #expect(trace.all == ["payments"])
        #expect(seen.withLock { $0 } == ["started pay.example.com", "succeeded pay.example.com"])
    }

    @Test func callLinksRunOncePerCallAndAttemptLinksOncePerAttempt() async throws {
        let trace = Trace()
        let attempts = Atomic(0)
        let flaky = ClosureTransport { _, _ in
            attempts.add(1, ordering: .relaxed).newValue == 1
                ? Response(status: .serviceUnavailable, body: []) : Response(status: .ok, body: [])
        }
        var retry = RetryPolicy(maxAttempts: 3)
        retry.backoff = RetryBackoff(random: { 0 })
        let configuration = ClientConfiguration(
            retry: retry,
            plugins: [
                Plugin(name: "call", interceptors: [trace.interceptor("call")]),
                Plugin(name: "attempt", position: .attempt, interceptors: [trace.interceptor("attempt")])
            ])
        let client = try Client(transport: flaky, configuration: configuration)
        let response = try await client.send(try Request(url: "https://api.example.com/items"))
        #expect(response.head.status == .ok)
        #expect(trace.all == ["call", "attempt", "attempt"])
    }

    @Test func aCompanionAtTheAttemptPositionRunsOnEveryAttemptAndIsListedUnderItsName() async throws {
        let trace = Trace()
        let attempts = Atomic(0)
        let flaky = ClosureTransport { _, _ in
            attempts.add(1, ordering: .relaxed).newValue == 1
                ? Response(status: .serviceUnavailable, body: []) : Response(status: .ok, body: [])
        }
        var retry = RetryPolicy(maxAttempts: 3)
        retry.backoff = RetryBackoff(random: { 0 })
        let seen = Lock<[String]>([])
        let audit = Plugin(
            name: "audit", interceptors: [trace.interceptor("audit")],
            companions: [
                Plugin(
                    name: "audit.attempt", scope: RequestScope(hosts: ["api.example.com"]), position: .attempt,
                    interceptors: [trace.interceptor("audit.attempt")],
                    observers: [{ event in seen.withLock { $0.append("\(event.kind.name) \(event.request.authority ?? "")") } }])
            ])
        let client = try Client(transport: flaky, configuration: ClientConfiguration(retry: retry, plugins: [audit]))

        let response = try await client.send(try Request(url: "https://api.example.com/items"))
        #expect(response.head.status == .ok)
        #expect(trace.all == ["audit", "audit.attempt", "audit.attempt"])
        let pluginLinks = client.chain.filter { $0.origin == .plugin("audit") || $0.origin == .plugin("audit.attempt") }
        #expect(pluginLinks.map(\.origin) == [.plugin("audit"), .plugin("audit.attempt")])
        #expect(pluginLinks.map(\.position) == [.call, .attempt])
        #expect(pluginLinks.map(\.scope) == [.all, RequestScope(hosts: ["api.example.com"])])

        // The companion keeps its own scope, for its links and its observers.
        _ = try await client.send(try Request(url: "https://shop.example.com/cart"))
        #expect(trace.all == ["audit", "audit.attempt", "audit.attempt", "audit"])
        #expect(seen.withLock { $0 }.contains("succeeded api.example.com"))
        #expect(!seen.withLock { $0 }.contains { $0.hasSuffix("shop.example.com") })
    }

    @Test func companionsAreNamedPlacedCheckedAndRemovedAsIfRegisteredOnTheirOwn() throws {
        let trace = Trace()
        func plugin(
            _ name: String, _ position: ChainPosition = .call, placement: Plugin.Placement = .inOrder,
            headerRules: [HeaderRule] = [], companions: [Plugin] = []
        ) -> Plugin {
            Plugin(
                name: name, position: position, placement: placement, headerRules: headerRules,
                interceptors: [trace.interceptor(name)], companions: companions)
        }
        func names(_ client: Client) -> [String] {
            client.chain.compactMap {
                if case .plugin(let name) = $0.origin, !$0.name.hasPrefix("Headers"), !["events", "popUps"].contains(name) {
                    name
                } else {
                    nil
                }
            }
        }
        // A companion of a companion joins too; another plugin may be placed relative to a companion.
        let audit = plugin(
            "audit",
            companions: [
                plugin("audit.attempt", .attempt, companions: [plugin("audit.deep", .attempt, headerRules: [.set("X-Audit", "deep")])])
            ])
        let client = try Client(
            transport: Self.okTransport,
            configuration: ClientConfiguration(
                redirects: nil, retry: nil,
                plugins: [audit, plugin("signing", .attempt, placement: .after("audit.attempt"), headerRules: [.set("X-Audit", "signing")])]
            ))
        #expect(names(client) == ["audit", "audit.attempt", "signing", "audit.deep"])
        // Its header rules are checked against every other plugin's.
        #expect(client.headerConflicts.count == 1)

        // Names are unique across plugins and companions.
        #expect(throws: PluginConfigurationError.duplicateName("audit.attempt")) { try client.register(plugin("audit.attempt")) }
        #expect(throws: PluginConfigurationError.duplicateName("x")) {
            try Client(
                transport: Self.okTransport, configuration: ClientConfiguration(plugins: [plugin("x", companions: [plugin("x", .attempt)])])
            )
        }

        // A companion's name removes that companion alone; the plugin's name removes it with its companions.
        try client.unregister(pluginNamed: "audit.deep")
        #expect(names(client) == ["audit", "audit.attempt", "signing"])
        #expect(throws: PluginConfigurationError.unknownPlacementTarget(plugin: "signing", target: "audit.attempt", position: .attempt)) {
            try client.unregister(pluginNamed: "audit")
        }
        #expect(names(client) == ["audit", "audit.attempt", "signing"])
        try client.unregister(pluginNamed: "signing")
        try client.unregister(pluginNamed: "audit")
        #expect(names(client).isEmpty)
        #expect(throws: PluginConfigurationError.unknownPlugin("audit.attempt")) { try client.unregister(pluginNamed: "audit.attempt") }
        try client.register(audit)
        #expect(names(client) == ["audit", "audit.attempt", "audit.deep"])
    }
}
