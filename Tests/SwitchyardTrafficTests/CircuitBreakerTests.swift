import HTTPTypes
import Switchyard
import SwitchyardTestSupport
import SwitchyardTesting
import SwitchyardTraffic
import Synchronization
import Testing

/// A client over `stub` with only the breaker link and a collected bus.
private func breakerClient(_ breaker: CircuitBreaker, _ stub: StubTransport) -> (Client, CollectedEvents) {
    let bus = EventBus()
    return (Client(transport: stub, interceptors: [CircuitBreakerInterceptor(breaker: breaker)], events: bus), CollectedEvents(bus))
}

/// A link that only forwards.
private struct PassThrough: Interceptor {
    func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response { try await next(request) }
}

/// A stub answering each request with the status in its path's last segment (`/s/503` → 503).
private let statusStub = StubTransport { request, _ in
    let code = request.head.path.flatMap { $0.split(separator: "/").last }.flatMap { Int($0) } ?? 200
    return Response(status: HTTPResponse.Status(code: code))
}

@Suite struct CircuitBreakerTests {
    @Test func cancellationsAndUncountedErrorsDoNotOpenIt() async throws {
        let breaker = CircuitBreaker(policy: .consecutiveFailures(1))
        let (client, events) = breakerClient(breaker, .failing(.cancelled))
        for _ in 0..<5 { _ = await failure(of: client, try Request(url: "http://a.test/")) }
        let (tlsClient, _) = breakerClient(breaker, .failing(.tls("bad certificate")))
        for _ in 0..<5 { _ = await failure(of: tlsClient, try Request(url: "http://a.test/")) }
        #expect(breaker.state(forHost: "a.test") == .closed)
        #expect(events.names.isEmpty)
    }

    @Test func failuresLeaveATimeWindow() async throws {
        let clock = ManualTestClock()
        let policy = CircuitBreakerPolicy(failureRateThreshold: 0.6, window: .duration(.seconds(10)), minimumCalls: 2)
        for ages in [false, true] {
            let breaker = CircuitBreaker(policy: policy, now: { clock.now })
            let (client, _) = breakerClient(breaker, statusStub)
            _ = try await client.send(try Request(url: "http://a.test/s/500"))
            if ages { clock.advance(by: .seconds(11)) }
            _ = try await client.send(try Request(url: "http://a.test/s/200"))
            _ = try await client.send(try Request(url: "http://a.test/s/500"))
            // Two failures in three calls (67 %) open it; one in two (50 %), after the first aged out, does not.
            #expect(breaker.state(forHost: "a.test") == (ages ? .closed : .open))
        }
    }

    @Test func halfOpenLetsOnlyTheConfiguredProbesThrough() async throws {
        let clock = ManualTestClock()
        let breaker = CircuitBreaker(
            policy: CircuitBreakerPolicy(
                failureRateThreshold: nil, consecutiveFailures: 1, openDuration: .seconds(5), halfOpenProbes: 2), now: { clock.now })
        let failing = Atomic(true)
        let released = Atomic(false)
        let (entered, enteredContinuation) = AsyncStream<Void>.makeStream()
        let stub = StubTransport { _, _ in
            if failing.load(ordering: .relaxed) { return Response(status: .serviceUnavailable) }
            enteredContinuation.yield()
            while !released.load(ordering: .relaxed) { try await Task.sleep(for: .milliseconds(2)) }
            return Response(status: .ok)
        }
        let (client, events) = breakerClient(breaker, stub)
        _ = try await client.send(try Request(url: "http://a.test/"))
        #expect(breaker.state(forHost: "a.test") == .open)
        failing.store(false, ordering: .relaxed)
        clock.advance(by: .seconds(6))

        let probes = (0..<2).map { _ in Task { try await client.send(try Request(url: "http://a.test/")).head.status } }
        var iterator = entered.makeAsyncIterator()
        for _ in 0..<2 { await iterator.next() }
        // Both probes are in flight: a third request fails fast, and the breaker stays half-open.
        let third = await failure(of: client, try Request(url: "http://a.test/"))
        #expect(third?.kind == .circuitOpen)
        #expect(third?.message.contains("probe requests now") == true)
        #expect(breaker.state(forHost: "a.test") == .halfOpen)
        released.store(true, ordering: .relaxed)
        for probe in probes { #expect(try await probe.value == .ok) }
        #expect(breaker.state(forHost: "a.test") == .closed)
        #expect(events.names == ["circuitOpened", "circuitClosed"])
        #expect(stub.callCount == 3)
    }

    @Test func aSharedBreakerCoversEveryHostOfItsScope() async throws {
        let breaker = CircuitBreaker(
            policy: CircuitBreakerPolicy(
                failureRateThreshold: nil, consecutiveFailures: 2, keying: .shared(name: "payments")))
        let (client, events) = breakerClient(breaker, statusStub)
        _ = try await client.send(try Request(url: "http://one.test/s/503"))
        _ = try await client.send(try Request(url: "http://two.test/s/503"))
        #expect(await failure(of: client, try Request(url: "http://three.test/s/200"))?.kind == .circuitOpen)
        #expect(breaker.state(forHost: "payments") == .open)
        let opened = try #require(events.all.first?.plugin(CircuitOpened.self), "no circuitOpened event")
        #expect(opened.host == "payments")
        #expect(opened.retryAfter == CircuitBreakerPolicy.defaultOpenDuration)
    }

    @Test func hostsCompareWithoutCaseOrUserInformation() async throws {
        let breaker = CircuitBreaker(policy: .consecutiveFailures(1))
        let (client, events) = breakerClient(breaker, statusStub)
        _ = try await client.send(try Request(url: "http://user:secret@API.Example.test:8080/s/500"))
        #expect(breaker.state(forHost: "api.example.test:8080") == .open)
        #expect(breaker.state(forHost: "API.EXAMPLE.TEST:8080") == .open)
        #expect(breaker.state(for: try Request(url: "http://api.example.test:8080/").head) == .open)
        #expect(breaker.state(forHost: "api.example.test") == .closed)
        let error = await failure(of: client, try Request(url: "http://api.example.test:8080/s/200"))
        #expect(error?.kind == .circuitOpen)
        #expect(error?.message.contains("secret") == false)
        #expect(events.all.first?.kind.name == "circuitOpened")
        breaker.reset()
        #expect(breaker.state(forHost: "api.example.test:8080") == .closed)
    }

    @Test func circuitOpenNamesTheHostAndTheCoolDown() {
        let error = SwitchyardError.circuitOpen(host: "a.test", retryAfter: .milliseconds(1500))
        #expect(error.kind == .circuitOpen)
        #expect(error.message.contains("a.test"))
        #expect(error.message.contains("1.5 s"))
        // The kind is the plugin's own: the kernel neither lists it nor has a text for it.
        #expect(!SwitchyardError.Kind.allCases.contains(.circuitOpen))
        #expect(PopUpMessages.standard.text(for: error) == nil)
    }

    @Test func theAppGivesItsKindThePluginsPopUpTextAndItSitsFirstAmongAttemptLinks() async throws {
        let breaker = CircuitBreaker(policy: .consecutiveFailures(1))
        let department = Plugin(name: "payments", position: .attempt, interceptors: [PassThrough()])
        var configuration = ClientConfiguration(retry: nil, plugins: [department, .circuitBreaker(breaker)])
        configuration.events = EventBus()
        configuration.popUps?.defaults.kinds[.circuitOpen] = CircuitBreaker.popUpText
        let client = try Client(transport: statusStub, configuration: configuration)
        let attemptLinks = client.chain.filter { $0.position == .attempt }.map(\.origin)
        #expect(attemptLinks.prefix(2) == [.plugin("circuitBreaker"), .plugin("payments")])

        let events = CollectedEvents(try #require(client.events))
        _ = try await client.send(try Request(url: "http://a.test/s/500"))
        #expect(await failure(of: client, try Request(url: "http://a.test/s/200"))?.kind == .circuitOpen)
        let popUp = try #require(events.all.last?.popUp)
        #expect(popUp.message == "The service is temporarily unavailable. Please try again later.")
        #expect(popUp.isWorthShowing)
    }
}
