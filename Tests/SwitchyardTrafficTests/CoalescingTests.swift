import HTTPTypes
import SwitchyardTestSupport
import Synchronization
import Testing

@testable import Switchyard
@testable import SwitchyardCore
@testable import SwitchyardTraffic

/// Eligibility and keys of coalescing, and the shared exchange over an in-memory transport.
@Suite(.timeLimit(.minutes(2)))
struct CoalescingTests {
    @Test func eligibilityChecksTheOverrideTheBodyTheMethodAndTheScopes() throws {
        let policy = CoalescingPolicy(scopes: [RequestScope(hosts: ["api.example.com"]), RequestScope(tags: ["feed"])])
        #expect(policy.isEligible(try Request(url: "https://api.example.com/a")))
        #expect(policy.isEligible(try Request(method: .head, url: "https://api.example.com/a")))
        #expect(!policy.isEligible(try Request(method: .post, url: "https://api.example.com/a")))
        #expect(!policy.isEligible(try Request(url: "https://api.example.com/a", body: HTTPBody("x"))))
        #expect(!policy.isEligible(try Request(url: "https://other.example.com/a")))
        #expect(policy.isEligible(try Request(url: "https://other.example.com/a", options: RequestOptions(tags: ["feed"]))))

        var never = try Request(url: "https://api.example.com/a")
        never.options.coalescing = .never
        #expect(!policy.isEligible(never))
        var always = try Request(method: .post, url: "https://other.example.com/a")
        always.options.coalescing = .always
        #expect(policy.isEligible(always))
        always.body = HTTPBody("x")
        #expect(!policy.isEligible(always))
    }

    @Test func theKeyIsTheMethodTheFullURLAndTheKeyFields() throws {
        let fields = CoalescingPolicy.defaultAdditionalKeyFields
        func key(
            _ method: HTTPRequest.Method = .get, _ url: String = "https://api.example.com/a?x=1",
            _ headers: KeyValuePairs<String, String> = [:]
        ) throws -> CoalescingKey {
            CoalescingKey(try Request(method: method, url: url, headers: headers).head, additionalFields: fields)
        }
        #expect(try key() == key())
        #expect(try key(.get, "https://api.example.com/a?x=1", ["User-Agent": "other"]) == key())
        #expect(try key(.head) != key())
        #expect(try key(.get, "https://api.example.com/a?x=2") != key())
        #expect(try key(.get, "http://api.example.com/a?x=1") != key())
        #expect(try key(.get, "https://api.example.com:8443/a?x=1") != key())
        for name in ["Authorization", "Accept", "Accept-Encoding", "Cookie", "Range", "If-None-Match"] {
            #expect(try key(.get, "https://api.example.com/a?x=1", [name: "one"]) != key(), "\(name)")
            #expect(
                try key(.get, "https://api.example.com/a?x=1", [name: "one"])
                    != key(.get, "https://api.example.com/a?x=1", [name: "two"]), "\(name)")
        }
        let custom = CoalescingKey(
            try Request(url: "https://api.example.com/a", headers: ["X-Tenant": "a"]).head,
            additionalFields: [HTTPField.Name("X-Tenant")!])
        let other = CoalescingKey(
            try Request(url: "https://api.example.com/a", headers: ["X-Tenant": "b"]).head,
            additionalFields: [HTTPField.Name("X-Tenant")!])
        #expect(custom != other)
    }

    @Test func theSharedFailureReachesEveryCaller() async throws {
        let transport = GatedTransport { throw SwitchyardError.connectionFailed("The server went away.") }
        try await withGatedClient(transport) { client, events in
            let tasks = (0..<3).map { _ in Task { try await client.send(try Request(url: "http://memory.test/a")) } }
            #expect(await eventually { events.all.filter { $0.kind.name == "coalesced" }.count == 2 })
            transport.open()
            for task in tasks {
                let error = await #expect(throws: SwitchyardError.self) { try await task.value }
                #expect(error?.kind == .connectionFailed)
            }
            #expect(transport.sends == 1)
        }
    }

    @Test func anInMemoryBodyIsHandedToEveryCallerWhole() async throws {
        let transport = GatedTransport { Response(status: .ok, body: Array("hello".utf8)) }
        try await withGatedClient(transport) { client, events in
            let tasks = (0..<3).map { _ in Task { try await client.send(try Request(url: "http://memory.test/a")) } }
            #expect(await eventually { events.all.filter { $0.kind.name == "coalesced" }.count == 2 })
            transport.open()
            for task in tasks {
                let text = try await task.value.text
                #expect(text == "hello")
            }
            #expect(transport.sends == 1)
        }
    }

    @Test func cancellingTheLeaderLeavesTheExchangeToTheFollowers() async throws {
        let transport = GatedTransport { Response(status: .ok, body: Array("shared".utf8)) }
        try await withGatedClient(transport) { client, events in
            let leader = Task { try await client.send(try Request(url: "http://memory.test/a")) }
            #expect(await eventually { transport.sends == 1 })
            let follower = Task { try await client.send(try Request(url: "http://memory.test/a")) }
            #expect(await eventually { events.all.contains { $0.kind.name == "coalesced" } })
            leader.cancel()
            #expect(await eventually { events.all.contains { $0.kind.name == "cancelled" } })
            transport.open()
            let text = try await follower.value.text
            #expect(text == "shared")
            let error = await #expect(throws: SwitchyardError.self) { try await leader.value }
            #expect(error?.kind == .cancelled)
            #expect(transport.sends == 1)
        }
    }

    @Test func aCallerAfterTheHeadStartsAnExchangeOfItsOwn() async throws {
        let transport = GatedTransport { Response(status: .ok, body: Array("x".utf8)) }
        transport.open()
        try await withGatedClient(transport) { client, events in
            let first = try await client.stream(try Request(url: "http://memory.test/a"))
            let second = try await client.send(try Request(url: "http://memory.test/a"))
            #expect(second.text == "x")
            #expect(try await first.body.collect(upTo: 10) == Array("x".utf8))
            #expect(transport.sends == 2)
            #expect(events.all.filter { $0.coalescedWith != nil }.isEmpty)
        }
    }
}

/// Runs `body` with a client whose only built-ins are events and coalescing, over `transport`.
private func withGatedClient(
    _ transport: GatedTransport, _ body: (Client, CollectedEvents) async throws -> Void
) async throws {
    let bus = EventBus()
    let events = CollectedEvents(bus)
    var configuration = ClientConfiguration(events: bus, redirects: nil, retry: nil, retryBudget: nil)
    configuration.plugins.append(.coalescing(CoalescingPolicy()))
    try await body(try Client(transport: transport, configuration: configuration), events)
}

/// Answers every request with `answer()` once the test opens its gate; counts the requests.
private final class GatedTransport: Transport {
    private let answer: @Sendable () throws -> Response
    private let state = Lock<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))
    private let sent = Atomic<Int>(0)

    init(_ answer: @escaping @Sendable () throws -> Response) { self.answer = answer }

    var sends: Int { sent.load(ordering: .relaxed) }

    func open() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    func send(_ request: Request, context: ExchangeContext) async throws -> Response {
        sent.add(1, ordering: .relaxed)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let open = state.withLock { state in
                if !state.open { state.waiting.append(continuation) }
                return state.open
            }
            if open { continuation.resume() }
        }
        return try answer()
    }
}

@Suite(.timeLimit(.minutes(2))) struct CoalescingDeadlineTests {
    /// A caller with a tighter deadline than the exchange in flight does not join it (it would wait
    /// past its own deadline) and ends by its own deadline; callers with a later deadline, or none, join.
    @Test func aCallerJoinsOnlyAnExchangeThatEndsNoLaterThanItsDeadline() async throws {
        let open = Atomic<Bool>(false)
        let sent = Atomic<Int>(0)
        let transport = ClosureTransport { _, _ in
            sent.add(1, ordering: .relaxed)
            while !open.load(ordering: .relaxed) { try await Task.sleep(for: .milliseconds(2)) }
            return Response(status: .ok, body: Array("shared".utf8))
        }
        let bus = EventBus()
        let events = CollectedEvents(bus)
        var configuration = ClientConfiguration(events: bus, redirects: nil, retry: nil)
        configuration.plugins.append(.coalescing(CoalescingPolicy()))
        let client = try Client(transport: transport, configuration: configuration)
        func request(timeout: Duration?) throws -> Request {
            var request = try Request(url: "http://example.test/config")
            request.options.timeout = timeout
            return request
        }
        let leader = Task { try await client.send(try request(timeout: .seconds(600))) }
        #expect(await eventually { sent.load(ordering: .relaxed) == 1 })
        let noDeadline = Task { try await client.send(try request(timeout: nil)) }
        let later = Task { try await client.send(try request(timeout: .seconds(1200))) }
        #expect(await eventually { events.count("coalesced") == 2 })
        let tighter = await #expect(throws: SwitchyardError.self) { try await client.send(try request(timeout: .milliseconds(50))) }
        #expect(tighter?.kind == .timeout)
        #expect(sent.load(ordering: .relaxed) == 2)  // the tighter caller had an exchange of its own
        #expect(events.count("coalesced") == 2)
        open.store(true, ordering: .relaxed)
        for task in [leader, noDeadline, later] { #expect(try await task.value.text == "shared") }
    }
}
