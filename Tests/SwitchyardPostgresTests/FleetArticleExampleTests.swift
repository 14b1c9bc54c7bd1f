import Switchyard
import SwitchyardCache
import SwitchyardCurl
import SwitchyardPostgres
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardTraffic
import Testing

/// The example of the module's article, run against the test database and the loopback server.
@Suite struct FleetArticleExampleTests {
    func example(databaseURL: String, itemsURL: String) async throws -> BufferedResponse {
        let shared = try PostgresSharedState(url: databaseURL)  // postgres://app@db.internal:5432/switchyard
        var configuration = ClientConfiguration()
        configuration.plugins += [
            .cache(HTTPCache(store: PostgresCacheStore(shared: shared, name: "partner-api"))),
            .rateLimit(
                RateLimiter(
                    limits: RateLimits(requestsPerSecond: 50, burst: 50),
                    sharing: RateLimitSharing(ledger: PostgresRateLimitLedger(shared: shared)))),
            .circuitBreaker(
                CircuitBreaker(
                    policy: .consecutiveFailures(5), sharing: CircuitSharing(store: PostgresCircuitStateStore(shared: shared))))
        ]
        let client = try Client(transport: CurlTransport(), configuration: configuration)
        let items = try await client.send(try Request(url: itemsURL))
        await shared.shutdown()
        return items
    }

    @Test func theArticlesFleetClientAnswersFromItsCacheTheSecondTime() async throws {
        let databaseURL = try #require(PostgresTestDatabase.url, "SWITCHYARD_POSTGRES_URL is not set: run `make test`.")
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        // The tables exist before the example's pool (bounded at its default 5 s) first asks for them:
        // creating them on a fresh database while the whole suite starts pools is slower than that.
        let warm = try PostgresTestDatabase.shared()
        _ = try await PostgresCacheStore(shared: warm).record(for: CacheKey(partition: "", resource: "warm-up"))
        await warm.shutdown()
        let key = PostgresTestDatabase.uniqueKey("article")
        let itemsURL = server.url("/cache/\(key)?max_age=600")
        #expect(try await example(databaseURL: databaseURL, itemsURL: itemsURL).text == "\(key) #1\n")
        #expect(try await example(databaseURL: databaseURL, itemsURL: itemsURL).text == "\(key) #1\n")
        #expect(server.requestCount(path: "/cache/\(key)") == 1)
    }
}
