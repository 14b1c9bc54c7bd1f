import HTTPTypes
import Switchyard
import SwitchyardCache
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// The stale-if-error policy: network first, the stored response when the network fails.
@Suite(.timeLimit(.minutes(2)))
struct StaleIfErrorTests {
    @Test(arguments: TransportKind.allCases)
    func refusedConnectionServesTheStaleResponse(_ kind: TransportKind) async throws {
        let cache = HTTPCache()
        let log = ProvenanceLog()
        let bus = EventBus()
        bus.addObserver { log.record($0) }
        let transport = kind.make()
        let client = try Client(
            transport: transport,
            configuration: ClientConfiguration(
                events: bus, retry: nil, plugins: [.cache(cache)]))
        let server = try await LoopbackServer.start()
        let url = server.url("/cache/refused?max_age=0")
        _ = try await client.send(try Request(url: url))
        try await server.shutdown()
        // Claimed at once and held: the port refuses connections, and no other test's server can take it.
        let refusing = try RefusingPort(port: server.port)
        defer { refusing.close() }

        var request = try Request(url: url)
        request.options.cachePolicy = .staleIfError
        let response = try await client.send(request)
        #expect(response.text == "refused #1\n")
        #expect(response.context.provenance.source == .stale)
        #expect(log.sources == [.network, .stale])

        // Standard semantics fail instead.
        let standard = try #require(await failure(of: client, try Request(url: url)))
        #expect(CacheInterceptor.networkFailureKinds.contains(standard.kind))
        try await transport.shutdown()
    }

    @Test(arguments: TransportKind.allCases)
    func serviceUnavailableServesTheStaleResponse(_ kind: TransportKind) async throws {
        try await withCachingClient(kind, cache: HTTPCache()) { client, server in
            let path = "/cache/unavailable?max_age=0&etag=e1"
            _ = try await client.send(try get(server, path))
            server.setCacheMode(.status(503), key: "unavailable")
            let response = try await client.send(try get(server, path, policy: .staleIfError))
            #expect(response.head.status == .ok)
            #expect(response.text == "unavailable #1\n")
            #expect(response.context.provenance.source == .stale)
            #expect(server.requestCount(path: "/cache/unavailable") == 2)

            let standard = try await client.send(try get(server, path))
            #expect(standard.head.status == .serviceUnavailable)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func timeoutServesTheStaleResponse(_ kind: TransportKind) async throws {
        var configuration = CacheConfiguration()
        configuration.networkTimeout = .milliseconds(300)
        try await withCachingClient(kind, cache: HTTPCache(configuration: configuration)) { client, server in
            let path = "/cache/stalled?max_age=0"
            _ = try await client.send(try get(server, path))
            server.setCacheMode(.stall, key: "stalled")
            let response = try await client.send(try get(server, path, policy: .staleIfError))
            #expect(response.text == "stalled #1\n")
            #expect(response.context.provenance.source == .stale)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func networkSuccessWinsOverTheStoredResponse(_ kind: TransportKind) async throws {
        // With a network timeout the response comes through a child task: its streamed body must survive it.
        var configuration = CacheConfiguration()
        configuration.networkTimeout = .seconds(60)
        configuration.ttlRules = [CacheTTLRule(scope: RequestScope(pathPrefixes: ["/bytes"]), ttl: .zero)]  // stored, stale
        try await withCachingClient(kind, cache: HTTPCache(configuration: configuration)) { client, server in
            let path = "/cache/online?max_age=600"
            _ = try await client.send(try get(server, path))
            let response = try await client.send(try get(server, path, policy: .staleIfError))
            #expect(response.text == "online #2\n")
            #expect(response.context.provenance == .network)
            _ = try await client.send(try get(server, "/bytes/300000?framing=chunked"))
            let large = try await client.send(try get(server, "/bytes/300000?framing=chunked", policy: .staleIfError))
            #expect(large.body.count == 300_000)
            #expect(large.context.provenance == .network)
            #expect(server.requestCount(path: "/bytes/300000") == 2)
        }
    }

    @Test func mustRevalidateIsNeverServedStale() async throws {
        try await withCachingClient(.curl, cache: HTTPCache()) { client, server in
            let path = "/cache/strict?cache_control=max-age=0,must-revalidate"
            _ = try await client.send(try get(server, path))
            server.setCacheMode(.status(503), key: "strict")
            let response = try await client.send(try get(server, path, policy: .staleIfError))
            #expect(response.head.status == .serviceUnavailable)
        }
    }
}
