import Foundation
import Switchyard
import SwitchyardCache
import SwitchyardCurl
import SwitchyardPostgres
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardTraffic
import Testing

/// The database stopped in the middle of a run and started again: requests keep flowing within the
/// bound, each store says it fell back, and once the database is back the fleet's state (here the
/// stored response) is there again, whole.
@Suite(.timeLimit(.minutes(5))) struct SharedStateFaultTests {
    @Test func aDatabaseStoppedMidRunAndStartedAgain() async throws {
        let database = try await ThrowawayDatabase.start(port: 54339)
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        // The bound is what a request waits at most on the stopped server (the pool keeps trying to
        // connect until then); long enough for a machine running the whole suite.
        let shared = try PostgresSharedState(url: database.url, operationTimeout: .seconds(10), retryInterval: .seconds(1))
        var cacheConfiguration = CacheConfiguration()
        cacheConfiguration.maxEntryBytes = 8 << 20
        let cache = HTTPCache(store: PostgresCacheStore(shared: shared, name: "fault"), configuration: cacheConfiguration)
        let limiter = RateLimiter(
            limits: RateLimits(requestsPerSecond: 1000, burst: 1000),
            sharing: RateLimitSharing(ledger: PostgresRateLimitLedger(shared: shared), leaseSize: 1, retryInterval: .milliseconds(500)))
        let breaker = CircuitBreaker(
            policy: .consecutiveFailures(3),
            sharing: CircuitSharing(
                store: PostgresCircuitStateStore(shared: shared), refreshInterval: .zero, retryInterval: .milliseconds(500)))
        let bus = EventBus()
        let events = CollectedEvents(bus)
        let client = try Client(
            transport: CurlTransport(),
            configuration: ClientConfiguration(
                events: bus, retry: nil, plugins: [.cache(cache), .rateLimit(limiter), .circuitBreaker(breaker)]))
        let url = server.url("/cache/fault?max_age=600&bytes=2000000")

        let stored = try await client.send(try Request(url: url))
        #expect(stored.context.provenance == .network)
        // The entry is stored when the body ends; on a loaded machine writing 2 MB can pass the
        // operation bound once (the store then falls back, and the next response stores it again).
        let cached = await eventually(timeout: .seconds(120)) {
            guard let response = try? await client.send(try Request(url: url)) else { return false }
            return response.context.provenance.source == .cache && response.body == stored.body
        }
        try #require(cached, "the entry is stored before the database stops")

        try await database.pause()
        // Each request is answered by the server, the stores failing within the bound.
        for _ in 0..<3 {
            let response = try await client.send(try Request(url: url))
            #expect(response.head.status.code == 200)
            #expect(response.body == stored.body)
        }
        let names = Set(events.names)
        #expect(names.isSuperset(of: ["cacheStoreFailed", "rateLimitLedgerFailed", "circuitStoreFailed"]), "\(names)")

        try await database.resume()
        // Back: the entry stored before the stop is served again, whole.
        let served = await eventually(timeout: .seconds(120)) {
            guard let response = try? await client.send(try Request(url: url)) else { return false }
            return response.context.provenance.source == .cache && response.body == stored.body
        }
        #expect(served)
        await shared.shutdown()
        try await database.stop()
    }
}
