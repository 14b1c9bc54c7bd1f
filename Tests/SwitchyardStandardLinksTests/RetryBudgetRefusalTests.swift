import HTTPTypes
import Switchyard
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// A retry the budget refuses says so: in the error's message (its kind unchanged), in a
/// `RetryBudgetRefused` event, and in the context of a response returned without validation.
@Suite(.timeLimit(.minutes(2))) struct RetryBudgetRefusalTests {
    /// A standard configuration (validation on or off) whose retries wait nothing, with `budget`.
    static func configuration(_ bus: EventBus, budget: RetryBudget, validation: StatusValidation? = StatusValidation())
        -> ClientConfiguration
    {
        ClientConfiguration(
            events: bus, validation: validation, retry: RetryPolicy(maxAttempts: 3, backoff: RetryBackoff(random: { 0 })),
            retryBudget: budget)
    }

    /// A budget that allows `retries` retries in all: no ratio, and a clock that stands still.
    static func budget(allowing retries: Int) -> RetryBudget {
        let start = ContinuousClock.now
        return RetryBudget(ratio: 0, minRetriesPerSecond: Double(retries) / 10, window: .seconds(10), now: { start })
    }

    /// A POST of `/flaky/{key}/{failures}` with an `Idempotency-Key`, so the policy retries it.
    static func keyedPost(_ server: LoopbackServer, key: String, failures: Int) throws -> Request {
        try Request(
            method: .post, url: server.url("/flaky/\(key)/\(failures)"), headers: ["Idempotency-Key": "order-\(key)"],
            body: HTTPBody("x"))
    }

    @Test(arguments: TransportKind.allCases)
    func aRefusedRetryOfA503SaysSoInTheErrorAndAnEvent(_ kind: TransportKind) async throws {
        let bus = EventBus()
        let events = CollectedEvents(bus)
        let budget = Self.budget(allowing: 1)
        try await withLoopbackClient(kind, configuration: Self.configuration(bus, budget: budget)) { client, server in
            // The first call's retry takes the one retry there is; the second call's is refused.
            let first = try await client.send(try Self.keyedPost(server, key: "first", failures: 1))
            #expect(first.text == "ok after 1\n")
            #expect(events.count("retryBudgetRefused") == 0)

            let error = await #expect(throws: SwitchyardError.self) {
                try await client.send(try Self.keyedPost(server, key: "second", failures: 5))
            }
            #expect(error?.kind == .httpStatus)
            #expect(error?.response?.status.code == 503)
            #expect(error?.attempt == 1)
            #expect(
                error?.message.hasSuffix(
                    "Not retried after attempt 1 (HTTP 503): the retry budget is spent"
                        + " (0 % of requests plus 0.1 retry a second, over 10 s; see ClientConfiguration.retryBudget).")
                    == true, "\(error?.message ?? "")")
            #expect(server.flakyArrivals(key: "second").count == 1)

            let refusals = events.all.compactMap { $0.plugin(RetryBudgetRefused.self) }
            #expect(refusals.map(\.attempt) == [1])
            #expect(refusals.map(\.status) == [503])
            #expect(refusals.map(\.reason) == ["HTTP 503"])
            #expect(refusals.first?.window == .seconds(10))
            // The refusal comes before the call's failure.
            let names = events.names
            #expect(names.firstIndex(of: "retryBudgetRefused") ?? .max < names.lastIndex(of: "failed") ?? .min)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aRefusedRetryOfAConnectionFailureKeepsItsKind(_ kind: TransportKind) async throws {
        let bus = EventBus()
        let events = CollectedEvents(bus)
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let transport = kind.make()
        let client = try Client(transport: transport, configuration: Self.configuration(bus, budget: Self.budget(allowing: 0)))
        let error = await #expect(throws: SwitchyardError.self) {
            try await client.send(try Request(url: refusing.url("/refused")))
        }
        try await transport.shutdown()
        #expect(error?.kind == .connectionFailed)
        #expect(error?.message.contains("Not retried after attempt 1 (") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("the retry budget is spent") == true)
        let refusals = events.all.compactMap { $0.plugin(RetryBudgetRefused.self) }
        #expect(refusals.count == 1)
        #expect(refusals.first?.status == nil)
    }

    @Test(arguments: TransportKind.allCases)
    func withoutValidationTheResponseCarriesTheRefusal(_ kind: TransportKind) async throws {
        let bus = EventBus()
        let events = CollectedEvents(bus)
        let configuration = Self.configuration(bus, budget: Self.budget(allowing: 0), validation: nil)
        try await withLoopbackClient(kind, configuration: configuration) { client, server in
            let response = try await client.send(try Self.keyedPost(server, key: "unvalidated", failures: 5))
            #expect(response.head.status == .serviceUnavailable)
            #expect(response.context.retryBudgetRefusal?.attempt == 1)
            #expect(response.context.retryBudgetRefusal?.status == 503)
            #expect(events.count("retryBudgetRefused") == 1)

            // A call the budget did not touch carries none.
            let fine = try await client.send(try Request(url: server.url("/flaky/fine/0")))
            #expect(fine.context.retryBudgetRefusal == nil)
        }
    }

    @Test func theExplanationWritesTheBudgetsFigures() {
        let refusal = RetryBudgetRefused(attempt: 2, reason: "HTTP 503", status: 503, budget: RetryBudget())
        #expect(
            refusal.explanation
                == "Not retried after attempt 2 (HTTP 503): the retry budget is spent"
                + " (20 % of requests plus 1 retry a second, over 10 s; see ClientConfiguration.retryBudget).")
        let start = ContinuousClock.now
        let odd = RetryBudget(ratio: 0.125, minRetriesPerSecond: 0.05, window: .milliseconds(2_500), now: { start })
        #expect(
            RetryBudgetRefused(attempt: 1, reason: "attempt timed out", status: nil, budget: odd).explanation
                == "Not retried after attempt 1 (attempt timed out): the retry budget is spent"
                + " (12.5 % of requests plus 0.05 retry a second, over 2.5 s; see ClientConfiguration.retryBudget).")
    }
}
