import HTTPTypes
import Switchyard
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardTraffic
import Testing

@Suite(.timeLimit(.minutes(3))) struct RateLimitLoopbackTests {
    @Test(arguments: TransportKind.allCases)
    func theBurstGoesAtOnceAndAQueuedRequestHonoursCancellationItsDeadlineAndTheRefill(kind: TransportKind) async throws {
        let clock = SteppedClock()
        let limiter = RateLimiter(requestsPerSecond: 1, burst: 2, clock: clock)
        var configuration = ClientConfiguration(events: nil, redirects: nil, retry: nil)
        configuration.plugins.append(.rateLimit(limiter))
        try await withLoopbackClient(kind, configuration: configuration) { client, server in
            for _ in 0..<2 {
                #expect(try await client.send(try Request(url: server.url("/small"))).head.status == .ok)
            }
            #expect(server.requestCount(path: "/small") == 2)

            let cancelled = Task { try await client.send(try Request(url: server.url("/small"))) }
            #expect(await eventually { limiter.queued == 1 })
            cancelled.cancel()
            let cancellation = await #expect(throws: SwitchyardError.self) { try await cancelled.value }
            #expect(cancellation?.kind == .cancelled)

            var late = try Request(url: server.url("/small"))
            late.options.timeout = .milliseconds(100)
            let timeout = await #expect(throws: SwitchyardError.self) { try await client.send(late) }
            #expect(timeout?.kind == .timeout)
            #expect(limiter.queued == 0)
            #expect(server.requestCount(path: "/small") == 2)  // neither reached the server

            let next = Task { try await client.send(try Request(url: server.url("/small"))) }
            #expect(await eventually { limiter.queued == 1 })
            clock.advance(by: .seconds(1))
            let response = try await next.value
            #expect(response.head.status == .ok)
            #expect(response.context.pipelineTimings.queued != nil)
            #expect(server.requestCount(path: "/small") == 3)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aRetryAfterAnswerHoldsTheBucketUntilTheTimeTheServerAskedFor(kind: TransportKind) async throws {
        let clock = SteppedClock()
        let limiter = RateLimiter(limits: RateLimits(requestsPerSecond: 100, burst: 10), clock: clock)
        let bus = EventBus()
        var configuration = ClientConfiguration(events: bus, redirects: nil, retry: nil)
        configuration.plugins.append(.rateLimit(limiter))
        let events = CollectedEvents(bus)
        try await withLoopbackClient(kind, configuration: configuration) { client, server in
            let answer = try await client.send(try Request(url: server.url("/retry-after/5")))
            #expect(answer.head.status == .serviceUnavailable)
            let held = events.all.compactMap { $0.plugin(RateLimitHeld.self) }
            #expect(held.map(\.duration) == [.seconds(5)])
            let host = breakerHost(server)  // the server's host and port, as buckets are keyed
            #expect(held.first?.host == host)

            // Nine tokens are left, but the server asked for five seconds: the next request waits.
            let next = Task { try await client.send(try Request(url: server.url("/small"))) }
            #expect(await eventually { limiter.queued == 1 })
            await clock.advance(by: .milliseconds(4_900), observedBy: limiter)
            #expect(limiter.queued == 1)
            #expect(server.requestCount(path: "/small") == 0)
            clock.advance(by: .milliseconds(100))
            #expect(try await next.value.head.status == .ok)
            #expect(server.requestCount(path: "/small") == 1)
            // The rate resumes with one token, not a burst.
            #expect(limiter.availableTokens(forHost: host) < 1)
        }
    }
}
