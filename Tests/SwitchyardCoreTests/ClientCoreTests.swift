import HTTPTypes
import Switchyard
import SwitchyardObservability
import Testing

/// What the core guarantees around the chain: one error boundary, events set by the client, an open
/// set of error kinds, plugins on a live client.
@Suite struct ClientCoreTests {
    static let okTransport = ClosureTransport { _, _ in Response(status: .ok, body: Array("ok".utf8)) }

    /// Records the names of the events it observes.
    final class Seen: Sendable {
        private let names = Lock<[String]>([])
        var all: [String] { names.withLock { $0 } }
        func observe(_ event: ExchangeEvent) { names.withLock { $0.append(event.kind.name) } }
    }

    // MARK: - Errors

    struct Plain: Error {}

    @Test func anInterceptorsOwnErrorIsWrappedOnceWithItsNameAttemptAndRequest() async throws {
        let seenBelow = Lock<SwitchyardError?>(nil)
        let client = Client(
            transport: Self.okTransport,
            interceptors: [
                ClosureInterceptor(name: "outer") { request, _, next in
                    do throws(SwitchyardError) { return try await next(request) } catch {
                        seenBelow.withLock { $0 = error }  // `next` throws SwitchyardError, no cast
                        throw error
                    }
                },
                ClosureInterceptor(name: "thrower") { _, _, _ in throw Plain() }
            ])
        let error = await #expect(throws: SwitchyardError.self) { try await client.send(try Request(url: "http://a.test/x")) }
        #expect(error?.kind == .transport)
        #expect(error?.interceptorName == "thrower")
        #expect(error?.attempt == 1)
        #expect(error?.request?.path == "/x")
        #expect(error?.underlyingError is Plain)
        // The outer link saw the same sealed error; it was not wrapped again on the way out.
        #expect(seenBelow.withLock { $0?.message } == error?.message)
        #expect(error?.message.hasPrefix("Interceptor thrower failed") == true)
    }

    @Test func aTransportErrorIsSealedWithTheRequestAndAttempt() async throws {
        let client = Client(transport: ClosureTransport { _, _ in throw Plain() })
        let error = await #expect(throws: SwitchyardError.self) { try await client.send(try Request(url: "http://a.test/y")) }
        #expect(error?.kind == .transport)
        #expect(error?.interceptorName == nil)
        #expect(error?.request?.path == "/y")
        #expect(error?.attempt == 1)
    }

    @Test func kindsAreAnOpenSetThatSwitchesWithADefault() {
        let quota = SwitchyardError.Kind(rawValue: "quotaExceeded")
        let error = SwitchyardError(quota, "Too many calls today.")
        let label: String
        switch error.kind {
        case .timeout, .connectionFailed: label = "offline"
        case quota: label = "quota"
        default: label = "other"
        }
        #expect(label == "quota")
        #expect(SwitchyardError.Kind(rawValue: "timeout") == .timeout)
        #expect(SwitchyardError.Kind.allCases.count == 10)
        #expect(!SwitchyardError.Kind.allCases.contains(quota))
        #expect(error.description.hasPrefix("quotaExceeded: "))
    }

    @Test func everyBuiltInKindHasAConstructor() {
        let head = HTTPResponse(status: .badRequest)
        let made: [SwitchyardError] = [
            .invalidRequest("x"), .cancelled, .timedOut(), .connectionFailed("x"), .tls("x"), .protocolViolation("x"),
            .responseTooLarge(limit: 1), .httpStatus("x", response: head), .decoding("x"), .transportFailed("x")
        ]
        #expect(made.map(\.kind) == SwitchyardError.Kind.allCases)
        #expect(made[7].response?.status == .badRequest)
        #expect(SwitchyardError.tooManyRedirects("x").kind == .tooManyRedirects)  // the transport kit's own kind
    }

    // MARK: - Events

    @Test func innerLinksPublishOnTheClientsBusWithoutAnEventsInterceptor() async throws {
        let bus = EventBus()
        let events = bus.subscribe()
        let calls = Lock(0)
        let flaky = ClosureTransport { _, _ in
            calls.withLock {
                $0 += 1
                return $0
            } == 1 ? Response(status: .serviceUnavailable) : Response(status: .ok)
        }
        let retry = RetryInterceptor(policy: RetryPolicy(backoff: RetryBackoff(random: { 0 })))
        let client = Client(transport: flaky, interceptors: [retry], events: bus)
        #expect(client.events === bus)
        _ = try await client.send(try Request(url: "http://a.test/"))
        for await event in events {
            #expect(event.kind.name == "retrying")
            break
        }
    }

    @Test func aBareClientAdoptsTheBusOfItsEventsInterceptor() {
        let bus = EventBus()
        let client = Client(transport: Self.okTransport, interceptors: [EventsInterceptor(bus: bus)])
        #expect(client.events === bus)
    }

    @Test func pluginObserversWithoutABusGetOneAndSeeTheirEvents() async throws {
        let seen = Seen()
        let configuration = ClientConfiguration(
            events: nil, plugins: [Plugin(name: "watcher", observers: [seen.observe])])
        let client = try Client(transport: Self.okTransport, configuration: configuration)
        #expect(client.events != nil)
        _ = try await client.send(try Request(url: "http://a.test/"))
        #expect(seen.all == ["started", "succeeded"])
    }

    @Test func aBusWithoutListenersReportsNone() {
        let bus = EventBus()
        #expect(!bus.hasListeners)
        bus.addObserver { _ in }
        #expect(bus.hasListeners)
    }

    // MARK: - Chain listing

    @Test func aBareClientListsLinksBelowRetryAsAttemptLinks() {
        let client = Client(
            transport: Self.okTransport,
            interceptors: [
                ClosureInterceptor(name: "top") { r, _, n in try await n(r) },
                RetryInterceptor(),
                ClosureInterceptor(name: "signing") { r, _, n in try await n(r) }
            ])
        #expect(client.chain.map(\.position) == [.call, .call, .attempt, .attempt])
        #expect(client.chain.map(\.name) == ["top", "RetryInterceptor", "signing", "ClosureTransport"])
    }

    // MARK: - Plugins on a live client

    @Test func aPluginRegisteredLaterRunsOnTheNextCallAndCanBeRemoved() async throws {
        let marks = Lock<[String]>([])
        let client = try Client(transport: Self.okTransport, configuration: ClientConfiguration())
        let plugin = Plugin(
            name: "payments",
            interceptors: [
                ClosureInterceptor(name: "mark") { request, _, next in
                    marks.withLock { $0.append(request.head.path ?? "") }
                    return try await next(request)
                }
            ])
        _ = try await client.send(try Request(url: "http://a.test/before"))
        try client.register(plugin)
        #expect(client.chain.contains { $0.origin == .plugin("payments") })
        _ = try await client.send(try Request(url: "http://a.test/during"))
        #expect(throws: PluginConfigurationError.duplicateName("payments")) { try client.register(plugin) }
        try client.unregister(pluginNamed: "payments")
        _ = try await client.send(try Request(url: "http://a.test/after"))
        #expect(marks.withLock { $0 } == ["/during"])
        #expect(throws: PluginConfigurationError.unknownPlugin("payments")) { try client.unregister(pluginNamed: "payments") }
    }

    @Test func aCallInFlightKeepsTheChainItStartedWith() async throws {
        let (entered, enteredContinuation) = AsyncStream<Void>.makeStream()
        let (release, releaseContinuation) = AsyncStream<Void>.makeStream()
        let gate = ClosureTransport { _, _ in
            enteredContinuation.yield()
            for await _ in release { break }
            return Response(status: .ok)
        }
        let pluginRan = Lock(0)
        let client = try Client(transport: gate, configuration: ClientConfiguration())
        let inFlight = Task { try await client.send(try Request(url: "http://a.test/")) }
        for await _ in entered { break }
        try client.register(
            Plugin(
                name: "late",
                interceptors: [
                    ClosureInterceptor { request, _, next in
                        pluginRan.withLock { $0 += 1 }
                        return try await next(request)
                    }
                ]))
        releaseContinuation.yield()
        _ = try await inFlight.value
        #expect(pluginRan.withLock { $0 } == 0)
        let next = Task { try await client.send(try Request(url: "http://a.test/")) }
        for await _ in entered { break }
        releaseContinuation.yield()
        _ = try await next.value
        #expect(pluginRan.withLock { $0 } == 1)
    }

    @Test func aFailedRegistrationLeavesTheChainUnchanged() throws {
        let client = try Client(transport: Self.okTransport, configuration: ClientConfiguration())
        let before = client.chain.map(\.name)
        #expect(throws: PluginConfigurationError.self) {
            try client.register(Plugin(name: "lost", placement: .before("nobody")))
        }
        #expect(client.chain.map(\.name) == before)
    }

    // MARK: - Stage timings

    @Test func stageTimingsAreRecordedOnlyInAChainThatReadsThem() async throws {
        let noop = ClosureInterceptor(name: "Noop") { r, _, n in try await n(r) }
        let timed = Client(transport: Self.okTransport, interceptors: [TimingStatsInterceptor(stats: TimingStats()), noop])
        let plain = Client(transport: Self.okTransport, interceptors: [noop])
        let on = try await timed.send(try Request(url: "http://a.test/"))
        let off = try await plain.send(try Request(url: "http://a.test/"))
        #expect(on.context.pipelineTimings.queued != nil)
        #expect(on.context.pipelineTimings.interceptors["Noop"] != nil)
        #expect(off.context.pipelineTimings.queued == nil)
        #expect(off.context.pipelineTimings.interceptors.isEmpty)
    }
}
