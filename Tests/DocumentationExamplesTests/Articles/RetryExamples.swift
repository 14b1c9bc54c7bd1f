import Switchyard
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

// Sources/Switchyard/Switchyard.docc/RetriesAndTheRetryBudget.md.

func budgetedConfiguration() -> ClientConfiguration {
    // doc:retry-budget
    var configuration = ClientConfiguration()
    configuration.retryBudget = RetryBudget(ratio: 1, minRetriesPerSecond: 5, window: .seconds(10))  // every call may retry
    configuration.retryBudget = nil  // no budget: the policy alone decides
    // end
    return configuration
}

func observeRefusals(on bus: EventBus, _ print: @escaping @Sendable (String) -> Void) {
    // doc:retry-budget-refused
    bus.addObserver { event in
        if let refused = event.plugin(RetryBudgetRefused.self) {
            print("retry refused after attempt \(refused.attempt): \(refused.reason)")
        }
    }
    // end
}

@Suite struct RetryExamples {
    @Test func aRefusedRetryIsObserved() async throws {
        let lines = Lock<[String]>([])
        let bus = EventBus()
        observeRefusals(on: bus) { line in lines.withLock { $0.append(line) } }
        var configuration = budgetedConfiguration()
        #expect(configuration.retryBudget == nil)
        configuration.events = bus
        configuration.validation = StatusValidation()
        configuration.retry = RetryPolicy(backoff: RetryBackoff(random: { 0 }))
        let start = ContinuousClock.now
        configuration.retryBudget = RetryBudget(ratio: 0, minRetriesPerSecond: 0, now: { start })  // refuses every retry
        try await withLoopbackServer { server in
            let transport = CurlTransport()
            let client = try Client(transport: transport, configuration: configuration)
            let error = await #expect(throws: SwitchyardError.self) {
                try await client.send(try Request(url: server.url("/flaky/docs-budget/5")))
            }
            try await transport.shutdown()
            #expect(error?.kind == .httpStatus)
            #expect(error?.message.contains("the retry budget is spent") == true)
        }
        #expect(lines.withLock { $0 } == ["retry refused after attempt 1: HTTP 503"])
    }
}
