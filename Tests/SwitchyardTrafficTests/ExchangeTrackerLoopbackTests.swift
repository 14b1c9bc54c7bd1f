import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardTraffic
import Testing

@Suite(.timeLimit(.minutes(3))) struct ExchangeTrackerLoopbackTests {
    @Test(arguments: TransportKind.allCases)
    func cancellingATagEndsItsQueuedInFlightAndBackingOffExchanges(kind: TransportKind) async throws {
        let limiter = ConcurrencyLimiter(maxExchanges: 2)
        let tracker = ExchangeTracker()
        let bus = EventBus()
        let events = bus.subscribe()
        let retry = RetryPolicy(maxAttempts: 5, backoff: RetryBackoff(random: { 0 }), maxRetryAfter: .seconds(600))
        try await withLimitedClient(kind, limiter: limiter, tracker: tracker, retry: retry, events: bus) { client, server in
            let screen: Set<String> = ["screen"]
            let key = "tracker-\(kind)"
            // In flight: held by the server.
            let inFlight = Task {
                try await client.send(try ConcurrencyLimitLoopbackTests.gated(server, key: key, id: "wire", tags: screen))
            }
            #expect(await eventually { server.gate(key: key).held == 1 })
            // Backing off: told to come back in five minutes.
            var backingOff = try Request(url: server.url("/flaky/\(key)/100?retry-after=300"))
            backingOff.options.tags = screen
            let sleeping = Task { try await client.send(backingOff) }
            for await event in events where event.kind.name == "retrying" { break }
            // Queued: both slots were taken until the back-off gave one back; fill it and queue one more.
            let other = Task { try await client.send(try ConcurrencyLimitLoopbackTests.gated(server, key: key, id: "other")) }
            #expect(await eventually { server.gate(key: key).held == 2 })
            let queued = Task {
                try await client.send(try ConcurrencyLimitLoopbackTests.gated(server, key: key, id: "queued", tags: screen))
            }
            #expect(await eventually { tracker.activity(tagged: "screen") == TrafficActivity(inFlight: 3, queued: 1) })
            #expect(tracker.activity() == TrafficActivity(inFlight: 4, queued: 1))

            #expect(tracker.cancel(tagged: "screen") == 3)
            for task in [inFlight, sleeping, queued] {
                let error = await #expect(throws: SwitchyardError.self) { try await task.value }
                #expect(error?.kind == .cancelled)
            }
            #expect(await server.waitForDisconnect(tag: "\(key)-wire", timeout: .seconds(30)))
            #expect(server.flakyArrivals(key: key).count == 1)  // no second attempt
            #expect(!server.gate(key: key).arrivals.contains("queued"))
            #expect(await eventually { tracker.activity() == TrafficActivity(inFlight: 1, queued: 0) })

            server.release(key: key)
            #expect(try await other.value.text == "other\n")  // untagged: untouched
            #expect(await eventually { tracker.activity() == TrafficActivity(inFlight: 0, queued: 0) })
        }
    }

    @Test(arguments: TransportKind.allCases)
    func cancellingAllEndsAStreamedBodyMidwayAndClosesTheConnection(kind: TransportKind) async throws {
        let tracker = ExchangeTracker()
        try await withLimitedClient(kind, limiter: ConcurrencyLimiter(), tracker: tracker) { client, server in
            let tag = "stream-\(kind)"
            let streamed = try await client.stream(try Request(url: server.url("/stall-body?bytes=1000&tag=\(tag)")))
            var iterator = streamed.body.makeAsyncIterator()
            let first = try await iterator.next()
            #expect(first?.isEmpty == false)
            #expect(tracker.activity().inFlight == 1)
            #expect(tracker.cancelAll() == 1)
            let error = await #expect(throws: SwitchyardError.self) {
                while try await iterator.next() != nil {}
            }
            #expect(error?.kind == .cancelled)
            #expect(await server.waitForDisconnect(tag: tag, timeout: .seconds(30)))
            #expect(await eventually { tracker.activity().inFlight == 0 })
        }
    }

    @Test func activityUpdatesFollowTheCountsAndACompletedStreamUnregisters() async throws {
        let tracker = ExchangeTracker()
        try await withLimitedClient(.curl, limiter: ConcurrencyLimiter(maxExchanges: 1), tracker: tracker) { client, server in
            let updates = tracker.activityUpdates()
            var iterator = updates.makeAsyncIterator()
            #expect(await iterator.next() == TrafficActivity(inFlight: 0, queued: 0))
            let held = Task { try await client.send(try ConcurrencyLimitLoopbackTests.gated(server, key: "activity", id: "a")) }
            #expect(await eventually { server.gate(key: "activity").held == 1 })
            let waiting = Task { try await client.send(try ConcurrencyLimitLoopbackTests.gated(server, key: "activity", id: "b")) }
            #expect(await eventually { tracker.activity() == TrafficActivity(inFlight: 2, queued: 1) })
            var seen: TrafficActivity?
            while let update = await iterator.next() {
                seen = update
                if update == TrafficActivity(inFlight: 2, queued: 1) { break }
            }
            #expect(seen == TrafficActivity(inFlight: 2, queued: 1))
            server.release(key: "activity")
            _ = try await held.value
            _ = try await waiting.value
            while let update = await iterator.next(), update.isActive {}
            #expect(tracker.activity() == TrafficActivity(inFlight: 0, queued: 0))

            let streamed = try await client.stream(try Request(url: server.url("/bytes/100000")))
            var count = 0
            for try await chunk in streamed.body { count += chunk.count }
            #expect(count == 100_000)
            #expect(await eventually { !tracker.activity().isActive })
        }
    }
}

@Suite struct ExchangeTrackerMemoryTests {
    /// A tracked call's task holds its response, whose context points back at the tracker entry that
    /// holds the task: the entry must let go when the call ends, or every call leaks.
    @Test func aTrackedCallLeavesNothingBehindOnceItsResponseIsGone() async throws {
        let tracker = ExchangeTracker()
        var configuration = ClientConfiguration(events: nil)
        configuration.plugins.append(.tracking(tracker))
        let client = try Client(
            transport: ClosureTransport { _, _ in Response(status: .ok, body: Array("hi".utf8)) },
            configuration: configuration)
        weak var bufferedContext: ExchangeContext?
        weak var streamedContext: ExchangeContext?
        do {
            let buffered = try await client.send(try Request(url: "http://example.test/a"))
            bufferedContext = buffered.context
            let streamed = try await client.stream(try Request(url: "http://example.test/b"))
            for try await _ in streamed.body {}
            streamedContext = streamed.context
        }
        #expect(bufferedContext == nil)
        #expect(streamedContext == nil)
        #expect(tracker.activity() == TrafficActivity(inFlight: 0, queued: 0))
    }
}

@Suite(.timeLimit(.minutes(2))) struct ExchangeTrackerCoalescingTests {
    /// Coalesced waiters are cancelled by their tag like any exchange; the shared exchange goes on
    /// for the caller whose tag was not cancelled.
    @Test(arguments: TransportKind.allCases)
    func cancellingATagEndsItsCoalescedWaitersAndLeavesTheOthers(kind: TransportKind) async throws {
        try await withLoopbackServer { server in
            let transport = kind.make()
            let bus = EventBus()
            let events = CollectedEvents(bus)
            let tracker = ExchangeTracker()
            var configuration = ClientConfiguration(events: bus)
            configuration.plugins.append(.coalescing(CoalescingPolicy()))
            configuration.plugins.append(.tracking(tracker))
            let client = try Client(transport: transport, configuration: configuration)
            let path = "/hold/tracked-\(kind)/1000"
            func send(tag: String) -> Task<BufferedResponse, any Error> {
                Task {
                    var request = try Request(url: server.url(path))
                    request.options.tags = [tag]
                    return try await client.send(request)
                }
            }
            let keeper = send(tag: "keep")
            #expect(await eventually { server.requestCount(path: path) == 1 })
            let screen = (0..<5).map { _ in send(tag: "screen") }
            #expect(await eventually { events.count("coalesced") == 5 })
            #expect(tracker.cancel(tagged: "screen") == 5)
            for task in screen {
                let error = await #expect(throws: SwitchyardError.self) { try await task.value }
                #expect(error?.kind == .cancelled)
            }
            server.release(key: "tracked-\(kind)")
            #expect(try await keeper.value.body.count == 1000)
            #expect(server.requestCount(path: path) == 1)
            try await transport.shutdown()
        }
    }
}
