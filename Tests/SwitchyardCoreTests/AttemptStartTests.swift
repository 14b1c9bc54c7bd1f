import HTTPTypes
import Switchyard
import Testing

/// `ExchangeContext.attemptStartedAt`: the exchange's start until an attempt begins, then the instant
/// the chain handed the attempt to the transport, as set.
@Suite struct AttemptStartTests {
    @Test func beforeAnyAttemptItIsTheExchangesStart() {
        let context = ExchangeContext()
        #expect(context.attemptStartedAt == context.startedAt)
    }

    @Test func itReadsBackWhatWasSetToTheNanosecond() {
        let context = ExchangeContext()
        for offset: Duration in [.zero, .nanoseconds(1), .milliseconds(1_234), .seconds(86_400 * 365), .milliseconds(-5)] {
            let instant = context.startedAt.advanced(by: offset)
            context.attemptStartedAt = instant
            #expect(context.attemptStartedAt == instant, "offset \(offset)")
        }
    }

    @Test func eachAttemptTheChainRunsStartsWhenItReachesTheTransport() async throws {
        let starts = Lock<[ContinuousClock.Instant]>([])
        let transport = ClosureTransport { _, context in
            starts.withLock { $0.append(context.attemptStartedAt) }
            return Response(HTTPResponse(status: .ok))
        }
        // Two attempts through the rest of the chain, as a retrying link makes them.
        let twice = ClosureInterceptor(name: "twice") { request, context, next in
            let first = try await next(request)
            await first.body?.discard()
            return try await next(request)
        }
        let before = ContinuousClock.now
        let response = try await Client(transport: transport, interceptors: [twice]).send(try Request(url: "http://127.0.0.1/"))
        let after = ContinuousClock.now
        let recorded = starts.withLock { $0 }
        try #require(recorded.count == 2)
        #expect(recorded[0] >= before && recorded[0] <= after)
        #expect(recorded[1] >= recorded[0] && recorded[1] <= after)
        #expect(response.context.attemptStartedAt == recorded[1])
        #expect(response.context.startedAt <= recorded[0])
    }
}

/// `ExchangeContext.checkLiveness(at:)`: the deadline judged at the time the caller read.
@Suite struct LivenessAtATimeTests {
    @Test func theDeadlineIsJudgedAtTheGivenTime() {
        var options = RequestOptions()
        options.timeout = .seconds(10)
        let start = ContinuousClock.now
        let context = ExchangeContext(options: options, startedAt: start)
        let deadline = start.advanced(by: .seconds(10))
        #expect(throws: Never.self) { try context.checkLiveness(at: deadline.advanced(by: .nanoseconds(-1))) }
        let error = #expect(throws: SwitchyardError.self) { try context.checkLiveness(at: deadline) }
        #expect(error?.kind == .timeout)
    }

    @Test func withoutADeadlineOnlyCancellationEndsIt() async {
        let context = ExchangeContext()
        #expect(throws: Never.self) { try context.checkLiveness(at: ContinuousClock.now.advanced(by: .seconds(86_400))) }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return Result { () throws(SwitchyardError) in try context.checkLiveness(at: .now) }
        }
        guard case .failure(let error) = await task.value else {
            Issue.record("a cancelled task is not live")
            return
        }
        #expect(error.kind == .cancelled)
    }
}
