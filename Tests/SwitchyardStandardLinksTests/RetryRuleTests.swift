import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

/// A stub answering the n-th call (1-based) with `answer(n)`, recording each request it was sent.
private func numberedStub(_ answer: @escaping @Sendable (Int) throws -> Response) -> StubTransport {
    let calls = Lock(0)
    return StubTransport { _, _ in
        try answer(
            calls.withLock {
                $0 += 1
                return $0
            })
    }
}

/// A policy with no real waiting (zero back-off) and `rule`.
private func ruled(maxAttempts: Int = 3, _ rule: @escaping @Sendable (RetryAttempt) -> RetryDecision) -> RetryPolicy {
    var policy = RetryPolicy(maxAttempts: maxAttempts, backoff: RetryBackoff(random: { 0 }))
    policy.shouldRetry = rule
    return policy
}

private let retryInMilliseconds = HTTPField.Name("X-Retry-In-Ms")!

@Suite struct RetryRuleTests {
    @Test func aRuleRetriesWhatTheBuiltInRulesWouldNot() async throws {
        let stub = numberedStub { $0 == 1 ? Response(status: .conflict) : Response(status: .ok) }
        let seen = Lock<[String]>([])
        let policy = ruled { attempt in
            seen.withLock { $0.append("\(attempt.number) \(attempt.response?.status.code ?? 0) \(attempt.request.path ?? "")") }
            return attempt.response?.status == .conflict ? .retry : .useBuiltIn
        }
        let bus = EventBus()
        let events = bus.subscribe()
        let client = Client(transport: stub, interceptors: [RetryInterceptor(policy: policy)], events: bus)
        let response = try await client.send(try Request(url: "http://a.test/orders"))
        #expect(response.head.status == .ok)
        #expect(stub.callCount == 2)
        // Asked after each attempt while attempts are left, the 200 included (left to the built-in rules).
        #expect(seen.withLock { $0 } == ["1 409 /orders", "2 200 /orders"])
        for await event in events {
            guard let reason = event.plugin(Retrying.self)?.reason else { continue }
            #expect(reason == "retry rule: HTTP 409")
            break
        }
    }

    @Test func aRuleStopsWhatTheBuiltInRulesWouldRetry() async throws {
        let stub = StubTransport.status(.serviceUnavailable)
        let policy = ruled { $0.request.path == "/reports" ? .doNotRetry : .useBuiltIn }
        let client = Client(transport: stub, interceptors: [RetryInterceptor(policy: policy)])
        #expect(try await client.send(try Request(url: "http://a.test/reports")).head.status == .serviceUnavailable)
        #expect(stub.callCount == 1)
        #expect(try await client.send(try Request(url: "http://a.test/other")).head.status == .serviceUnavailable)
        #expect(stub.callCount == 1 + 3)
    }

    @Test func aRuleSetsTheWaitFromAHeaderOfTheServersOwn() async throws {
        let stub = numberedStub {
            $0 == 1 ? Response(status: .serviceUnavailable, headerFields: [retryInMilliseconds: "7"]) : Response(status: .ok)
        }
        let policy = ruled { attempt in
            if let value = attempt.response?.headerFields[retryInMilliseconds], let ms = Int(value) {
                return .retry(after: .milliseconds(ms))
            }
            return .useBuiltIn
        }
        let response = try await Client(transport: stub, interceptors: [RetryInterceptor(policy: policy)])
            .send(try Request(url: "http://a.test/"))
        #expect(response.head.status == .ok)
        #expect(response.context.pipelineTimings.backoffs == [.milliseconds(7)])
    }

    @Test func aRuleSeesErrorsAndMayRetryAKindTheBuiltInRulesTreatAsFinal() async throws {
        let failures = Lock(0)
        let stub = StubTransport { _, _ in
            let number = failures.withLock {
                $0 += 1
                return $0
            }
            if number == 1 { throw SwitchyardError.protocolViolation("garbled") }
            return Response(status: .ok)
        }
        let kinds = Lock<[SwitchyardError.Kind]>([])
        let policy = ruled { attempt in
            if let error = attempt.error { kinds.withLock { $0.append(error.kind) } }
            return attempt.error?.kind == .protocolViolation ? .retry : .useBuiltIn
        }
        let response = try await Client(transport: stub, interceptors: [RetryInterceptor(policy: policy)])
            .send(try Request(url: "http://a.test/"))
        #expect(response.head.status == .ok)
        #expect(kinds.withLock { $0 } == [.protocolViolation])
    }

    @Test func aRuleCannotPassTheAttemptsTheDeadlineOrASingleUseBodyAndIsNotAskedAboutThem() async throws {
        let asked = Lock(0)
        let always = ruled(maxAttempts: 2) { _ in
            asked.withLock { $0 += 1 }
            return .retry
        }
        let stub = StubTransport.status(.badRequest)
        _ = try await Client(transport: stub, interceptors: [RetryInterceptor(policy: always)]).send(try Request(url: "http://a.test/"))
        #expect(stub.callCount == 2)
        #expect(asked.withLock { $0 } == 1)

        // A wait that would cross the deadline is not started.
        let late = ruled { _ in .retry(after: .seconds(3600)) }
        var bounded = try Request(url: "http://a.test/")
        bounded.options.timeout = .seconds(60)
        let once = StubTransport.status(.badRequest)
        _ = try await Client(transport: once, interceptors: [RetryInterceptor(policy: late)]).send(bounded)
        #expect(once.callCount == 1)

        // A single-use body is never sent twice, whatever the rule says.
        let streamed = StubTransport { request, _ in
            for try await _ in request.body! {}
            return Response(status: .serviceUnavailable)
        }
        let body = HTTPBody(
            AsyncStream<[UInt8]> {
                $0.yield([1])
                $0.finish()
            })
        asked.withLock { $0 = 0 }
        _ = try await Client(transport: streamed, interceptors: [RetryInterceptor(policy: always)])
            .send(try Request(method: .put, url: "http://a.test/", body: body))
        #expect(streamed.callCount == 1)
        #expect(asked.withLock { $0 } == 0)
    }

    @Test func aRuleRetryOverridesTheMethodRuleAndShowsWhetherRepeatingIsSafe() async throws {
        let safety = Lock<[Bool]>([])
        let policy = ruled { attempt in
            safety.withLock { $0.append(attempt.isSafeToRepeat) }
            return attempt.isSafeToRepeat ? .useBuiltIn : .retry
        }
        let stub = StubTransport.status(.serviceUnavailable)
        let client = Client(transport: stub, interceptors: [RetryInterceptor(policy: policy)])
        _ = try await client.send(try Request(method: .post, url: "http://a.test/"))
        #expect(stub.callCount == 3)
        _ = try await client.send(try Request(method: .post, url: "http://a.test/", headers: ["Idempotency-Key": "k"]))
        #expect(stub.callCount == 6)
        #expect(safety.withLock { $0 } == [false, false, true, true])
    }

    @Test func aRuleRetryWithoutADelayWaitsWhatThePolicyWould() async throws {
        let policy = ruled { $0.response?.status == .conflict ? .retry : .useBuiltIn }
        // Retry-After within the cap: honoured.
        let asked = numberedStub { $0 == 1 ? Response(status: .conflict, headerFields: [.retryAfter: "0"]) : Response(status: .ok) }
        let response = try await Client(transport: asked, interceptors: [RetryInterceptor(policy: policy)])
            .send(try Request(url: "http://a.test/"))
        #expect(response.context.pipelineTimings.backoffs == [.zero])
        // Beyond the cap: the response is final, as in the built-in rules.
        let tooLong = StubTransport { _, _ in Response(status: .conflict, headerFields: [.retryAfter: "3600"]) }
        _ = try await Client(transport: tooLong, interceptors: [RetryInterceptor(policy: policy)]).send(try Request(url: "http://a.test/"))
        #expect(tooLong.callCount == 1)
    }

    @Test func aCancelledAttemptIsNotShownToTheRule() async throws {
        let asked = Lock(0)
        let policy = ruled { _ in
            asked.withLock { $0 += 1 }
            return .retry
        }
        let stub = StubTransport.failing(.cancelled)
        let error = await #expect(throws: SwitchyardError.self) {
            try await Client(transport: stub, interceptors: [RetryInterceptor(policy: policy)]).send(try Request(url: "http://a.test/"))
        }
        #expect(error?.kind == .cancelled)
        #expect(stub.callCount == 1)
        #expect(asked.withLock { $0 } == 0)
    }

    @Test func theBudgetStillBoundsRetriesARuleAsksFor() async throws {
        let start = ContinuousClock.now
        let budget = RetryBudget(ratio: 0, minRetriesPerSecond: 0, window: .seconds(60), now: { start })
        let stub = StubTransport.status(.conflict)
        let client = Client(transport: stub, interceptors: [RetryInterceptor(policy: ruled { _ in .retry }, budget: budget)])
        _ = try await client.send(try Request(url: "http://a.test/"))
        #expect(stub.callCount == 1)
    }
}
