import Foundation
import Switchyard
import SwitchyardCurl
import SwitchyardPostgres
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardTraffic
import Testing

/// Rate-limit buckets and circuit breakers shared through PostgreSQL by clients that each stand for
/// a process (their own limiter or breaker and pool); the multi-process versions are in `YardTests`.
@Suite struct SharedTrafficTests {
    /// A client over curl with `plugin` and a collected bus.
    static func client(_ plugin: Plugin) throws -> (Client, CollectedEvents) {
        let bus = EventBus()
        let client = try Client(transport: CurlTransport(), configuration: ClientConfiguration(events: bus, retry: nil, plugins: [plugin]))
        return (client, CollectedEvents(bus))
    }

    static func breaker(
        _ shared: PostgresSharedState, name: String, openDuration: Duration = .seconds(60), retryInterval: Duration = .seconds(5)
    ) -> CircuitBreaker {
        var policy = CircuitBreakerPolicy.consecutiveFailures(3, openDuration: openDuration)
        policy.keying = .shared(name: name)
        let store = PostgresCircuitStateStore(shared: shared)
        return CircuitBreaker(policy: policy, sharing: CircuitSharing(store: store, refreshInterval: .zero, retryInterval: retryInterval))
    }

    /// A pool to nothing, whose failures are said once for the whole test however slow the machine:
    /// the retry intervals outlast it.
    static func unreachable() throws -> PostgresSharedState {
        try PostgresSharedState(
            url: "postgres://app:s3cret-pw@127.0.0.1:9/none", operationTimeout: .seconds(2), retryInterval: .seconds(600))
    }

    @Test func failuresOfTwoProcessesOpenTheHostForBoth() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let name = PostgresTestDatabase.uniqueKey("breaker")
        let (sharedA, sharedB) = (try PostgresTestDatabase.shared(), try PostgresTestDatabase.shared())
        let (breakerA, breakerB) = (Self.breaker(sharedA, name: name), Self.breaker(sharedB, name: name))
        let (clientA, eventsA) = try Self.client(.circuitBreaker(breakerA))
        let (clientB, eventsB) = try Self.client(.circuitBreaker(breakerB))
        let failing = try Request(url: server.url("/status/500"))

        // Two failures in A and one in B: the fleet's third opens the breaker, in B at once…
        _ = try await clientA.send(failing)
        _ = try await clientA.send(failing)
        _ = try await clientB.send(failing)
        #expect(breakerB.state(forHost: name) == .open)
        #expect(eventsB.names.contains("circuitOpened"))
        // …and in A before its next request reaches the server.
        do {
            _ = try await clientA.send(failing)
            Issue.record("A sent a request to a host the fleet opened")
        } catch {
            #expect(error.kind == .circuitOpen)
        }
        #expect(breakerA.state(forHost: name) == .open)
        #expect(eventsA.names.contains("circuitOpened"))
        #expect(server.requestCount(path: "/status/500") == 3)
        await sharedA.shutdown()
        await sharedB.shutdown()
    }

    @Test func oneProcessHoldsTheFleetsProbeAndItsSuccessClosesTheHostForAll() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let name = PostgresTestDatabase.uniqueKey("probe")
        let (sharedA, sharedB) = (try PostgresTestDatabase.shared(), try PostgresTestDatabase.shared())
        let breakerA = Self.breaker(sharedA, name: name, openDuration: .milliseconds(300))
        let breakerB = Self.breaker(sharedB, name: name, openDuration: .milliseconds(300))
        let (clientA, _) = try Self.client(.circuitBreaker(breakerA))
        let (clientB, eventsB) = try Self.client(.circuitBreaker(breakerB))
        for _ in 0..<3 { _ = try await clientA.send(try Request(url: server.url("/status/500"))) }

        // The fleet's cool-down ends (by the database's clock) with nobody holding the probe…
        let store = PostgresCircuitStateStore(shared: sharedA)
        #expect(await eventually { (try? await store.state(of: name).openFor) == .zero })
        // …then another process claims it: B fails fast while that probe is out.
        #expect(try await store.claimProbe(of: name, for: .seconds(60)) == nil)
        let healthy = try Request(url: server.url("/status/204"))
        do {
            _ = try await clientB.send(healthy)
            Issue.record("a request went out while another process held the probe")
        } catch {
            #expect(error.kind == .circuitOpen)
        }
        #expect(breakerB.state(forHost: name) == .open)
        #expect(server.requestCount(path: "/status/204") == 0)

        // The probe's success closes the breaker for the fleet: B's next request finds it closed.
        try await store.recordSuccess(of: name, isProbe: true)
        #expect(try await store.state(of: name) == SharedCircuit(failures: 0, openFor: nil))
        #expect(try await clientB.send(healthy).head.status.code == 204)
        #expect(breakerB.state(forHost: name) == .closed)
        #expect(eventsB.names.contains("circuitClosed"))
        await sharedA.shutdown()
        await sharedB.shutdown()
    }

    @Test func anUnreachableStoreLeavesTheBreakerToThisProcessAndSaysSoOnce() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let shared = try Self.unreachable()
        let (client, events) = try Self.client(.circuitBreaker(Self.breaker(shared, name: "unreachable", retryInterval: .seconds(600))))
        let failing = try Request(url: server.url("/status/500"))
        for _ in 0..<3 { _ = try await client.send(failing) }
        do {
            _ = try await client.send(failing)
            Issue.record("the local breaker did not open")
        } catch {
            #expect(error.kind == .circuitOpen)
        }
        let failures = events.all.compactMap { $0.plugin(CircuitStoreFailed.self) }
        #expect(failures.count == 1)
        #expect(failures.first?.message.contains("127.0.0.1:9/none") == true)
        #expect(failures.first?.message.contains("s3cret-pw") == false)
        await shared.shutdown()
    }

    @Test func twoLimitersTakeTheirTokensFromOneBucket() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let (sharedA, sharedB) = (try PostgresTestDatabase.shared(), try PostgresTestDatabase.shared())
        let scope = PostgresTestDatabase.uniqueKey("scope")
        // Both limiters lease from the bucket of this test's own server (the key is its host and port).
        let limits = RateLimits(requestsPerSecond: 20, burst: 10)
        let (clientA, _) = try Self.client(
            .rateLimit(RateLimiter(limits: limits, sharing: RateLimitSharing(ledger: PostgresRateLimitLedger(shared: sharedA)))))
        let (clientB, _) = try Self.client(
            .rateLimit(RateLimiter(limits: limits, sharing: RateLimitSharing(ledger: PostgresRateLimitLedger(shared: sharedB)))))
        let started = ContinuousClock.now
        let request = try Request(url: server.url("/flaky/\(scope)/0"))
        async let fromA = clientA.send(all: Array(repeating: request, count: 30), maxConcurrency: 30)
        async let fromB = clientB.send(all: Array(repeating: request, count: 30), maxConcurrency: 30)
        let results = await fromA + fromB
        #expect(results.allSatisfy { (try? $0.get().head.status.code) == 200 })
        let arrivals = server.flakyArrivals(key: scope)
        #expect(arrivals.count == 60)
        let excess = arrivals.enumerated().filter { index, arrival in
            Double(index + 1) > 10 + 20 * started.duration(to: arrival).milliseconds / 1000 + 1
        }
        #expect(excess.isEmpty, "\(excess.count) arrivals came faster than the shared bucket allows")
        await sharedA.shutdown()
        await sharedB.shutdown()
    }

    @Test func aRequestWaitingForTheFleetsNextTokenHonoursItsDeadline() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let shared = try PostgresTestDatabase.shared()
        // The fleet's bucket of this server holds no token for 1,000 seconds (whatever an earlier run left).
        let limits = RateLimits(requestsPerSecond: 0.001, burst: 1)
        let ledger = PostgresRateLimitLedger(shared: shared)
        try await ledger.hold(String(server.baseURL.dropFirst("http://".count)), for: .seconds(1000), limits: limits)
        let (client, _) = try Self.client(.rateLimit(RateLimiter(limits: limits, sharing: RateLimitSharing(ledger: ledger))))
        var waiting = try Request(url: server.url("/status/204"))
        waiting.options.timeout = .milliseconds(300)
        do {
            _ = try await client.send(waiting)
            Issue.record("a request went out without the fleet's token")
        } catch {
            #expect(error.kind == .timeout)
        }
        #expect(server.requestCount(path: "/status/204") == 0)
        await shared.shutdown()
    }

    @Test func aRetryAfterSeenByOneLimiterHoldsTheOther() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let (sharedA, sharedB) = (try PostgresTestDatabase.shared(), try PostgresTestDatabase.shared())
        let limits = RateLimits(requestsPerSecond: 100, burst: 100)
        let (clientA, eventsA) = try Self.client(
            .rateLimit(RateLimiter(limits: limits, sharing: RateLimitSharing(ledger: PostgresRateLimitLedger(shared: sharedA)))))
        let (clientB, _) = try Self.client(
            .rateLimit(RateLimiter(limits: limits, sharing: RateLimitSharing(ledger: PostgresRateLimitLedger(shared: sharedB)))))
        let before = ContinuousClock.now
        let held = try await clientA.send(try Request(url: server.url("/retry-after/1")))
        #expect(held.head.status.code == 503)
        #expect(eventsA.names.contains("rateLimitHeld"))
        // The hold is in the fleet's bucket once A's answer is out.
        let key = PostgresTestDatabase.uniqueKey("after-hold")
        _ = try await clientB.send(try Request(url: server.url("/flaky/\(key)/0")))
        let arrival = try #require(server.flakyArrivals(key: key).first)
        // The hold began after `before` (by the database's clock, which this machine shares).
        #expect(before.duration(to: arrival) >= .milliseconds(950), "B's request went out during the fleet's hold")
        await sharedA.shutdown()
        await sharedB.shutdown()
    }

    @Test(arguments: [RateLimitSharing.Fallback.localBuckets, .refuse])
    func anUnreachableLedgerFallsBackAsConfiguredAndSaysSoOnce(fallback: RateLimitSharing.Fallback) async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let shared = try Self.unreachable()
        let sharing = RateLimitSharing(ledger: PostgresRateLimitLedger(shared: shared), fallback: fallback, retryInterval: .seconds(600))
        let (client, events) = try Self.client(
            .rateLimit(RateLimiter(limits: RateLimits(requestsPerSecond: 100, burst: 100), sharing: sharing)))
        let request = try Request(url: server.url("/status/204"))
        let results = await client.send(all: Array(repeating: request, count: 5), maxConcurrency: 1)
        switch fallback {
        case .localBuckets: #expect(results.allSatisfy { (try? $0.get().head.status.code) == 204 })
        case .refuse:
            #expect(results.allSatisfy { if case .failure(let error) = $0 { error.kind == .sharedStateUnavailable } else { false } })
            #expect(server.requestCount(path: "/status/204") == 0)
        }
        let failures = events.all.compactMap { $0.plugin(RateLimitLedgerFailed.self) }
        #expect(failures.count == 1)
        #expect(failures.first?.usedLocalBuckets == (fallback == .localBuckets))
        #expect(failures.first?.message.contains("s3cret-pw") == false)
        await shared.shutdown()
    }
}
