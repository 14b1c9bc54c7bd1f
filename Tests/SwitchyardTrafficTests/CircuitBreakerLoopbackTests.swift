import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardTraffic
import Testing

/// A configuration with the breaker on, no retry and no redirects (one attempt per call), and a bus.
private func breakerConfiguration(_ breaker: CircuitBreaker, retry: RetryPolicy? = nil) -> (ClientConfiguration, CollectedEvents) {
    let bus = EventBus()
    var configuration = ClientConfiguration(events: bus, redirects: nil, retry: retry, retryBudget: nil)
    configuration.plugins.append(.circuitBreaker(breaker))
    return (configuration, CollectedEvents(bus))
}

extension CollectedEvents {
    /// The hosts of the `circuitOpened` events so far.
    fileprivate var opened: [String] { all.compactMap { $0.plugin(CircuitOpened.self)?.host } }
    /// The hosts of the `circuitClosed` events so far.
    fileprivate var closed: [String] { all.compactMap { $0.plugin(CircuitClosed.self)?.host } }
}

@Suite(.timeLimit(.minutes(2))) struct CircuitBreakerLoopbackTests {
    @Test(arguments: TransportKind.allCases)
    func opensOnFailuresFailsFastAndClosesAfterTheProbeSucceeds(_ kind: TransportKind) async throws {
        let clock = ManualTestClock()
        let breaker = CircuitBreaker(
            policy: CircuitBreakerPolicy(
                failureRateThreshold: 0.5, window: .calls(4), minimumCalls: 4, openDuration: .seconds(30)), now: { clock.now })
        let (configuration, events) = breakerConfiguration(breaker)
        try await withTrafficTestClient(kind, configuration: configuration) { client, server in
            let host = breakerHost(server)
            server.setCacheMode(.status(503), key: "down")
            // 1 success and 3 failures: 75 % ≥ 50 % once the window holds 4 calls.
            _ = try await client.send(try Request(url: server.url("/cache/up")))
            for _ in 0..<3 {
                #expect(try await client.send(try Request(url: server.url("/cache/down"))).head.status == .serviceUnavailable)
            }
            #expect(events.opened == [host])
            #expect(breaker.state(forHost: host) == .open)
            #expect(server.requestCount(path: "/cache/down") == 3)

            // Open: every request fails at once, nothing reaches the server, no second event.
            for path in ["/cache/down", "/cache/up", "/small"] {
                let error = await failure(of: client, try Request(url: server.url(path)))
                #expect(error?.kind == .circuitOpen)
                #expect(error?.message.contains(host) == true)
                #expect(error?.message.contains("probe") == true)
            }
            #expect(server.requestCount(path: "/cache/down") == 3)
            #expect(server.requestCount(path: "/cache/up") == 1)
            #expect(server.requestCount(path: "/small") == 0)
            #expect(events.opened == [host])

            // The host recovers and the cool-down passes: one probe goes through and closes the breaker.
            server.setCacheMode(.ok, key: "down")
            clock.advance(by: .seconds(31))
            #expect(breaker.state(forHost: host) == .halfOpen)
            #expect(try await client.send(try Request(url: server.url("/cache/down"))).head.status == .ok)
            #expect(server.requestCount(path: "/cache/down") == 4)
            #expect(breaker.state(forHost: host) == .closed)
            #expect(events.closed == [host])
            _ = try await client.send(try Request(url: server.url("/small")))
            #expect(events.opened == [host])
            #expect(events.closed == [host])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aProbeIsLetThroughOnceARealCoolDownEnds(_ kind: TransportKind) async throws {
        let breaker = CircuitBreaker(policy: .consecutiveFailures(2, openDuration: .milliseconds(100)))
        let (configuration, events) = breakerConfiguration(breaker)
        try await withTrafficTestClient(kind, configuration: configuration) { client, server in
            let host = breakerHost(server)
            server.setCacheMode(.status(500), key: "cool")
            for _ in 0..<2 { _ = try await client.send(try Request(url: server.url("/cache/cool"))) }
            #expect(events.opened == [host])
            server.setCacheMode(.ok, key: "cool")
            // However long the cool-down really takes here, the breaker lets a probe through after it.
            var status: HTTPResponse.Status?
            let end = ContinuousClock.now + .seconds(60)
            let request = try Request(url: server.url("/cache/cool"))
            while status == nil, ContinuousClock.now < end {
                do throws(SwitchyardError) {
                    status = try await client.send(request).head.status
                } catch {
                    #expect(error.kind == .circuitOpen)
                    try await Task.sleep(for: .milliseconds(10))
                }
            }
            #expect(status == .ok)
            #expect(server.requestCount(path: "/cache/cool") == 3)
            #expect(events.closed == [host])
            #expect(events.opened == [host])
            #expect(breaker.state(forHost: host) == .closed)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aFailedProbeOpensTheBreakerAgain(_ kind: TransportKind) async throws {
        let clock = ManualTestClock()
        let breaker = CircuitBreaker(policy: .consecutiveFailures(1, openDuration: .seconds(10)), now: { clock.now })
        let (configuration, events) = breakerConfiguration(breaker)
        try await withTrafficTestClient(kind, configuration: configuration) { client, server in
            let host = breakerHost(server)
            server.setCacheMode(.status(502), key: "still-down")
            _ = try await client.send(try Request(url: server.url("/cache/still-down")))
            clock.advance(by: .seconds(11))
            _ = try await client.send(try Request(url: server.url("/cache/still-down")))  // the probe, a 502 again
            #expect(events.opened == [host, host])
            #expect(events.closed.isEmpty)
            #expect(breaker.state(forHost: host) == .open)
            #expect(await failureKind(of: client, try Request(url: server.url("/cache/still-down"))) == .circuitOpen)
            #expect(server.requestCount(path: "/cache/still-down") == 2)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func clientErrorsDoNotCount(_ kind: TransportKind) async throws {
        let breaker = CircuitBreaker(
            policy: CircuitBreakerPolicy(
                failureRateThreshold: 0.5, window: .calls(10), minimumCalls: 4, consecutiveFailures: 2))
        let (configuration, events) = breakerConfiguration(breaker)
        try await withTrafficTestClient(kind, configuration: configuration) { client, server in
            // Eight 404s: a 100 % "error" rate if 4xx counted; they are successes for the breaker.
            for _ in 0..<8 {
                #expect(try await client.send(try Request(url: server.url("/status/404"))).head.status == .notFound)
            }
            // A 4xx between two 5xx breaks the run of failures (2 in a row would open it), and the
            // window holds 2 failures in 10 calls.
            _ = try await client.send(try Request(url: server.url("/status/503")))
            _ = try await client.send(try Request(url: server.url("/status/429")))
            _ = try await client.send(try Request(url: server.url("/status/503")))
            #expect(breaker.state(forHost: breakerHost(server)) == .closed)
            #expect(events.opened.isEmpty)
            #expect(server.requestCount(path: "/status/404") == 8)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func circuitOpenIsNeverRetried(_ kind: TransportKind) async throws {
        let clock = ManualTestClock()
        let breaker = CircuitBreaker(policy: .consecutiveFailures(2, openDuration: .seconds(30)), now: { clock.now })
        let retry = RetryPolicy(maxAttempts: 5, backoff: RetryBackoff(random: { 0 }))
        let (configuration, events) = breakerConfiguration(breaker, retry: retry)
        try await withTrafficTestClient(kind, configuration: configuration) { client, server in
            server.setCacheMode(.status(503), key: "retried")
            // Attempts 1 and 2 reach the server and open the breaker; attempt 3 fails fast, and that is final.
            let error = await failure(of: client, try Request(url: server.url("/cache/retried")))
            #expect(error?.kind == .circuitOpen)
            #expect(error?.attempt == 3)
            #expect(server.requestCount(path: "/cache/retried") == 2)
            #expect(events.names.filter { $0 == "retrying" }.count == 2)

            let next = await failure(of: client, try Request(url: server.url("/cache/retried")))
            #expect(next?.kind == .circuitOpen)
            #expect(next?.attempt == 1)
            #expect(server.requestCount(path: "/cache/retried") == 2)
            #expect(events.opened.count == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func connectionFailuresCount(_ kind: TransportKind) async throws {
        // A port nobody listens on, held refusing for the whole test (a shut-down server's port could
        // be taken by another test's server).
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let url = refusing.url("/small")
        let host = "127.0.0.1:\(refusing.port)"

        let breaker = CircuitBreaker(policy: .consecutiveFailures(2, openDuration: .seconds(60)))
        let (configuration, events) = breakerConfiguration(breaker)
        try await withTrafficTestClient(kind, configuration: configuration) { client, _ in
            let request = try Request(url: url)
            #expect(await failureKind(of: client, request) == .connectionFailed)
            #expect(await failureKind(of: client, request) == .connectionFailed)
            #expect(events.opened == [host])
            #expect(await failureKind(of: client, request) == .circuitOpen)
            #expect(breaker.state(forHost: host) == .open)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func requestsOutsideTheScopeAreNeitherCountedNorStopped(_ kind: TransportKind) async throws {
        let policy = CircuitBreakerPolicy(consecutiveFailures: 1, scope: RequestScope(pathPrefixes: ["/cache/watched"]))
        let breaker = CircuitBreaker(policy: policy)
        let (configuration, events) = breakerConfiguration(breaker)
        try await withTrafficTestClient(kind, configuration: configuration) { client, server in
            for _ in 0..<3 { _ = try await client.send(try Request(url: server.url("/status/500"))) }
            #expect(events.opened.isEmpty)
            server.setCacheMode(.status(500), key: "watched")
            _ = try await client.send(try Request(url: server.url("/cache/watched")))
            #expect(events.opened.count == 1)
            #expect(await failureKind(of: client, try Request(url: server.url("/cache/watched"))) == .circuitOpen)
            #expect(try await client.send(try Request(url: server.url("/status/500"))).head.status == .internalServerError)
            #expect(server.requestCount(path: "/status/500") == 4)
        }
    }
}
