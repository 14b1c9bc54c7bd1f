import HTTPTypes
import Switchyard
import SwitchyardCache
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// The cache's fallbacks and cache-then-network in the chain an app has: the standard status
/// validation on (below the cache), events collected, on every transport.
@Suite(.timeLimit(.minutes(3)))
struct CacheWithStatusValidationTests {
    /// Starts a loopback server and a client over `kind` with status validation, `retry` (none by
    /// default, so a failure reaches the cache at once) and `cache`, runs `body` with the events the
    /// client publishes, and shuts both down.
    func withValidatingCache<T>(
        _ kind: TransportKind, cache: HTTPCache = HTTPCache(), retry: RetryPolicy? = nil,
        _ body: (Client, LoopbackServer, CollectedEvents) async throws -> T
    ) async throws -> T {
        let bus = EventBus()
        let events = CollectedEvents(bus)
        let configuration = ClientConfiguration(
            events: bus, validation: StatusValidation(), retry: retry, retryBudget: nil, plugins: [.cache(cache)])
        return try await withLoopbackClient(kind, configuration: configuration) { client, server in
            try await body(client, server, events)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func serverErrorsServeTheStoredResponse(_ kind: TransportKind) async throws {
        try await withValidatingCache(kind) { client, server, events in
            for code in [500, 502, 503, 504] {
                let key = "validated-\(code)"
                let path = "/cache/\(key)?max_age=0&etag=e1"
                _ = try await client.send(try get(server, path))
                server.setCacheMode(.status(code), key: key)
                let response = try await client.send(try get(server, path, policy: .staleIfError))
                #expect(response.head.status == .ok, "\(code)")
                #expect(response.text == "\(key) #1\n")
                #expect(response.context.provenance.source == .stale)
                #expect(server.requestCount(path: "/cache/\(key)") == 2)
            }
            #expect(events.count("failed") == 0)
            #expect(events.worthyPopUps.isEmpty)

            // Other statuses are the caller's failure, as without the cache.
            for code in [404, 501] {
                let key = "validated-\(code)"
                let path = "/cache/\(key)?max_age=0"
                _ = try await client.send(try get(server, path))
                server.setCacheMode(.status(code), key: key)
                let error = await #expect(throws: SwitchyardError.self) {
                    try await client.send(try get(server, path, policy: .staleIfError))
                }
                #expect(error?.kind == .httpStatus)
                #expect(error?.response?.status.code == code)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func theFallbackComesAfterTheRetriesGaveUp(_ kind: TransportKind) async throws {
        let retry = RetryPolicy(maxAttempts: 3, backoff: RetryBackoff(random: { 0 }))
        try await withValidatingCache(kind, retry: retry) { client, server, events in
            let path = "/cache/retried?max_age=0"
            _ = try await client.send(try get(server, path))
            server.setCacheMode(.status(503), key: "retried")
            let response = try await client.send(try get(server, path, policy: .staleIfError))
            #expect(response.text == "retried #1\n")
            #expect(response.context.provenance.source == .stale)
            #expect(server.requestCount(path: "/cache/retried") == 4)  // the first response, then 3 attempts
            #expect(events.count("retrying") == 2)
            #expect(events.count("failed") == 0)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func theRequestsOwnTimeoutServesTheStoredResponse(_ kind: TransportKind) async throws {
        // No CacheConfiguration.networkTimeout: the exchange's deadline alone makes the network fail.
        try await withValidatingCache(kind) { client, server, events in
            let path = "/cache/deadline?max_age=0"
            _ = try await client.send(try get(server, path))
            server.setCacheMode(.stall, key: "deadline")
            var request = try get(server, path, policy: .staleIfError)
            request.options.timeout = .seconds(2)  // ends the network's attempt; the stored copy answers
            let response = try await client.send(request)
            #expect(response.text == "deadline #1\n")
            #expect(response.context.provenance.source == .stale)
            #expect(events.count("failed") == 0)

            // Without a stored response the timeout is the call's.
            var unstored = try get(server, "/cache/deadline-unstored", policy: .staleIfError)
            server.setCacheMode(.stall, key: "deadline-unstored")
            unstored.options.timeout = .milliseconds(300)
            let error = await #expect(throws: SwitchyardError.self) { try await client.send(unstored) }
            #expect(error?.kind == .timeout)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aColdCacheThenNetworkIsNotAFailure(_ kind: TransportKind) async throws {
        try await withValidatingCache(kind) { client, server, events in
            let path = "/cache/cold?max_age=60"
            var cold: [String] = []
            for try await response in client.cacheThenNetwork(try get(server, path)) {
                cold.append("\(response.context.provenance.source) \(response.text)")
            }
            #expect(cold == ["network cold #1\n"])
            #expect(server.requestCount(path: "/cache/cold") == 1)
            #expect(events.count("failed") == 0)
            #expect(events.count("succeeded") == 1)
            #expect(events.worthyPopUps.isEmpty)

            // Once stored: the stored response, then the network's.
            var warm: [String] = []
            for try await response in client.cacheThenNetwork(try get(server, path)) {
                warm.append("\(response.context.provenance.source) \(response.text)")
            }
            #expect(warm == ["cache cold #1\n", "network cold #2\n"])
            #expect(events.count("failed") == 0)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aColdCacheThenNetworkAsksAFailingNetworkOnce(_ kind: TransportKind) async throws {
        try await withValidatingCache(kind) { client, server, events in
            server.setCacheMode(.status(503), key: "cold-down")
            let stream = client.cacheThenNetwork(try get(server, "/cache/cold-down?max_age=60"))
            let error = await #expect(throws: SwitchyardError.self) {
                for try await _ in stream {}
            }
            #expect(error?.kind == .httpStatus)
            #expect(error?.response?.status.code == 503)
            #expect(server.requestCount(path: "/cache/cold-down") == 1)
            #expect(events.count("failed") == 1)
        }
    }
}
