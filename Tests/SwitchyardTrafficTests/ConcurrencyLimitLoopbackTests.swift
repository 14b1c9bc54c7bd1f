import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardTraffic
import Testing

/// Runs `body` with a client of `kind` whose chain has `limiter`, against a new embedded server.
func withLimitedClient(
    _ kind: TransportKind, limiter: ConcurrencyLimiter, tracker: ExchangeTracker? = nil,
    retry: RetryPolicy? = nil, events: EventBus? = nil,
    _ body: (Client, LoopbackServer) async throws -> Void
) async throws {
    var configuration = ClientConfiguration(events: events, redirects: nil, retry: retry)
    configuration.plugins.append(.concurrencyLimit(limiter))
    if let tracker { configuration.plugins.append(.tracking(tracker)) }
    // The server holds gated exchanges silent while the test queues up to 46 more one at a time; on
    // a loaded machine that took longer than the transports' idle timeout, which then ended a held
    // exchange and let a queued one through early. The holds are the test's, so no idle timeout.
    try await withLoopbackClient(kind, configuration: configuration, idleTimeout: nil, body)
}

@Suite(.timeLimit(.minutes(10))) struct ConcurrencyLimitLoopbackTests {
    /// A GET of the `/gate/{key}` route with this id and priority.
    static func gated(
        _ server: LoopbackServer, key: String, id: String, priority: RequestPriority = .utility,
        timeout: Duration? = nil, tags: Set<String> = []
    ) throws -> Request {
        var request = try Request(url: server.url("/gate/\(key)?id=\(id)&tag=\(key)-\(id)"))
        request.options.priority = priority
        request.options.timeout = timeout
        request.options.tags = tags
        return request
    }

    @Test(arguments: TransportKind.allCases)
    func aPerHostLimitOfFourKeepsTheServerAtFourAndLetsFiftyThroughInPriorityOrder(kind: TransportKind) async throws {
        let limiter = ConcurrencyLimiter(maxExchangesPerHost: 4)
        try await withLimitedClient(kind, limiter: limiter) { client, server in
            let key = "limit-\(kind)"
            var tasks: [Task<String, any Error>] = []
            // Four take the slots and are held by the server.
            for index in 0..<4 {
                let request = try Self.gated(server, key: key, id: "first\(index)")
                tasks.append(Task { try await client.send(request).text })
            }
            #expect(await eventually { server.gate(key: key).held == 4 })
            // 46 more queue, one at a time so that their order within a priority is known.
            let cycle: [RequestPriority] = [.background, .utility, .userInitiated]
            var queued: [(id: String, priority: RequestPriority)] = []
            for index in 0..<46 {
                let priority = cycle[index % 3]
                let id = "\(priority)\(index)"
                let request = try Self.gated(server, key: key, id: id, priority: priority)
                tasks.append(Task { try await client.send(request).text })
                queued.append((id, priority))
                #expect(await eventually { limiter.queued == index + 1 })
            }
            #expect(limiter.inFlight == 4)
            // The server lets one through at a time; each freed slot goes to the next in the queue.
            for released in 1...46 {
                server.release(key: key, count: 1)
                #expect(await eventually { server.gate(key: key).arrivals.count == 4 + released })
            }
            server.release(key: key)
            var bodies: [String] = []
            for task in tasks { bodies.append(try await task.value) }

            let figures = server.gate(key: key)
            let expected = queued.enumerated().sorted { ($0.element.priority, $0.offset) < ($1.element.priority, $1.offset) }
                .map(\.element.id)
            #expect(Array(figures.arrivals.dropFirst(4)) == expected)
            #expect(figures.maxConcurrent <= 4)
            #expect(bodies.count == 50)
            #expect(bodies.allSatisfy { $0.hasSuffix("\n") })
            #expect(limiter.inFlight == 0)
            #expect(limiter.queued == 0)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aQueuedRequestHonoursItsDeadlineAndCancellationWithoutReachingTheServer(kind: TransportKind) async throws {
        let limiter = ConcurrencyLimiter(maxExchanges: 1)
        try await withLimitedClient(kind, limiter: limiter) { client, server in
            let key = "queue-\(kind)"
            let holder = try Self.gated(server, key: key, id: "holder")
            let held = Task { try await client.send(holder) }
            #expect(await eventually { server.gate(key: key).held == 1 })

            let late = try Self.gated(server, key: key, id: "late", timeout: .milliseconds(200))
            let timedOut = await #expect(throws: SwitchyardError.self) { try await client.send(late) }
            #expect(timedOut?.kind == .timeout)

            let waiting = Task { try await client.send(try Self.gated(server, key: key, id: "cancelled")) }
            #expect(await eventually { limiter.queued == 1 })
            waiting.cancel()
            let cancelled = await #expect(throws: SwitchyardError.self) { try await waiting.value }
            #expect(cancelled?.kind == .cancelled)
            #expect(limiter.queued == 0)

            // The next one waits its turn, records the wait as its queued phase, then goes.
            let next = Task { try await client.send(try Self.gated(server, key: key, id: "next")) }
            #expect(await eventually { limiter.queued == 1 })
            server.release(key: key)
            _ = try await held.value
            let response = try await next.value
            #expect(response.text == "next\n")
            #expect((response.context.pipelineTimings.queued ?? .zero) > .zero)
            #expect(server.gate(key: key).arrivals == ["holder", "next"])
        }
    }

    @Test func aSlotIsHeldUntilTheStreamedBodyEndsAndFreedWhenItIsDropped() async throws {
        let limiter = ConcurrencyLimiter(maxExchanges: 1)
        try await withLimitedClient(.curl, limiter: limiter) { client, server in
            let streamed = try await client.stream(try Request(url: server.url("/bytes/\(1 << 20)")))
            #expect(limiter.inFlight == 1)
            var count = 0
            for try await chunk in streamed.body { count += chunk.count }
            #expect(count == 1 << 20)
            #expect(limiter.inFlight == 0)

            do {
                let dropped = try await client.stream(try Request(url: server.url("/stall-body?bytes=10")))
                #expect(dropped.head.status == .ok)
                #expect(limiter.inFlight == 1)
            }
            #expect(await eventually { limiter.inFlight == 0 })
            // Out of scope, nothing is counted.
            let response = try await client.send(try Request(url: server.url("/small")))
            #expect(response.head.status == .ok)
        }
    }

    @Test func requestsOutsideTheScopeAreNotCounted() async throws {
        let limiter = ConcurrencyLimiter(maxExchanges: 1, scope: RequestScope(pathPrefixes: ["/gate"]))
        try await withLimitedClient(.curl, limiter: limiter) { client, server in
            let held = Task { try await client.send(try Self.gated(server, key: "scope", id: "a")) }
            #expect(await eventually { server.gate(key: "scope").held == 1 })
            let response = try await client.send(try Request(url: server.url("/small")))  // not queued
            #expect(response.head.status == .ok)
            server.release(key: "scope")
            _ = try await held.value
        }
    }
}
