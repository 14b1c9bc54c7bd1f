import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

/// A stub answering the n-th call (1-based) with `answer(n)`.
private func sequencedStub(_ answer: @escaping @Sendable (Int) throws -> Response) -> StubTransport {
    let calls = Lock(0)
    return StubTransport { _, _ in
        try answer(
            calls.withLock {
                $0 += 1
                return $0
            })
    }
}

/// A policy with no real waiting: zero back-off.
private func quickPolicy(maxAttempts: Int = 3) -> RetryPolicy {
    RetryPolicy(maxAttempts: maxAttempts, backoff: RetryBackoff(random: { 0 }))
}

@Suite struct RetryInterceptorTests {
    @Test func retriesARetryableStatusUntilSuccess() async throws {
        let stub = sequencedStub { $0 < 3 ? Response(status: .serviceUnavailable, body: Array("busy".utf8)) : Response(status: .ok) }
        let attempts = Lock<[Int]>([])
        let bus = EventBus()
        let events = bus.subscribe()
        let client = Client(
            transport: stub,
            interceptors: [
                RetryInterceptor(policy: RetryPolicy(backoff: RetryBackoff(base: .milliseconds(4), random: { 0.5 }))),
                ClosureInterceptor { request, context, next in
                    attempts.withLock { $0.append(context.attempt) }
                    return try await next(request)
                }
            ], events: bus)
        let response = try await client.send(try Request(url: "http://a.test/"))
        #expect(response.head.status == .ok)
        #expect(stub.callCount == 3)
        #expect(attempts.withLock { $0 } == [1, 2, 3])
        #expect(response.context.attempt == 3)
        #expect(response.context.pipelineTimings.backoffs == [.milliseconds(2), .milliseconds(4)])
        var retrying: [String] = []
        for await event in events {
            guard let hop = event.plugin(Retrying.self) else { continue }
            let (attempt, delay, reason) = (hop.attempt, hop.delay, hop.reason)
            retrying.append("\(attempt) \(delay) \(reason)")
            if retrying.count == 2 { break }
        }
        #expect(retrying == ["1 0.002 seconds HTTP 503", "2 0.004 seconds HTTP 503"])
    }

    @Test func exhaustedAttemptsReturnTheLastResponse() async throws {
        let stub = sequencedStub { Response(status: .badGateway, body: Array("attempt \($0)".utf8)) }
        let client = Client(transport: stub, interceptors: [RetryInterceptor(policy: quickPolicy(maxAttempts: 4))])
        let response = try await client.send(try Request(url: "http://a.test/"))
        #expect(response.head.status == .badGateway)
        #expect(response.text == "attempt 4")
        #expect(stub.callCount == 4)
    }

    @Test func exhaustedAttemptsThrowTheLastErrorWithItsAttempt() async throws {
        let stub = StubTransport.failing(.connectionFailed("refused"))
        let client = Client(transport: stub, interceptors: [RetryInterceptor(policy: quickPolicy())])
        let error = await #expect(throws: SwitchyardError.self) { try await client.send(try Request(url: "http://a.test/")) }
        #expect(error?.kind == .connectionFailed)
        #expect(error?.attempt == 3)
        #expect(stub.callCount == 3)
    }

    @Test func nonRetryableOutcomesAreFinal() async throws {
        for failure in [SwitchyardError.cancelled, .invalidRequest("bad"), .protocolViolation("garbled"), .responseTooLarge(limit: 1)] {
            let stub = StubTransport.failing(failure)
            let client = Client(transport: stub, interceptors: [RetryInterceptor(policy: quickPolicy())])
            let error = await #expect(throws: SwitchyardError.self) { try await client.send(try Request(url: "http://a.test/")) }
            #expect(error?.kind == failure.kind)
            #expect(stub.callCount == 1, "\(failure.kind)")
        }
        let notFound = StubTransport.status(.notFound)
        let client = Client(transport: notFound, interceptors: [RetryInterceptor(policy: quickPolicy())])
        #expect(try await client.send(try Request(url: "http://a.test/")).head.status == .notFound)
        #expect(notFound.callCount == 1)
    }

    @Test func timeoutOfAnAttemptIsRetriedForIdempotentRequestsOnly() async throws {
        let get = StubTransport.failing(.timedOut())
        _ = try? await Client(transport: get, interceptors: [RetryInterceptor(policy: quickPolicy())])
            .send(try Request(url: "http://a.test/"))
        #expect(get.callCount == 3)
        let post = StubTransport.failing(.timedOut())
        _ = try? await Client(transport: post, interceptors: [RetryInterceptor(policy: quickPolicy())])
            .send(try Request(method: .post, url: "http://a.test/"))
        #expect(post.callCount == 1)
    }

    @Test func nonIdempotentRequestsNeedAKeyOrAnOptIn() async throws {
        func attempts(_ request: Request, policy: RetryPolicy = quickPolicy()) async throws -> Int {
            let stub = StubTransport.status(.serviceUnavailable)
            _ = try await Client(transport: stub, interceptors: [RetryInterceptor(policy: policy)]).send(request)
            return stub.callCount
        }
        #expect(try await attempts(try Request(method: .post, url: "http://a.test/")) == 1)
        #expect(try await attempts(try Request(method: .post, url: "http://a.test/", headers: ["Idempotency-Key": "k"])) == 3)
        var optedIn = try Request(method: .post, url: "http://a.test/")
        optedIn.options.retry = .allowingNonIdempotentRetry
        #expect(try await attempts(optedIn) == 3)
        var policy = quickPolicy()
        policy.retriesNonIdempotentRequests = true
        #expect(try await attempts(try Request(method: .patch, url: "http://a.test/"), policy: policy) == 3)
        var disabled = try Request(url: "http://a.test/")
        disabled.options.retry = .disabled
        #expect(try await attempts(disabled) == 1)
    }

    @Test func aSingleUseBodyIsNeverRetried() async throws {
        let stub = StubTransport { request, _ in
            for try await _ in request.body! {}
            return Response(status: .serviceUnavailable)
        }
        var request = try Request(
            method: .put, url: "http://a.test/",
            body: HTTPBody(
                AsyncStream<[UInt8]> {
                    $0.yield([1, 2, 3])
                    $0.finish()
                }))
        request.options.retry = .allowingNonIdempotentRetry
        let response = try await Client(transport: stub, interceptors: [RetryInterceptor(policy: quickPolicy())]).send(request)
        #expect(response.head.status == .serviceUnavailable)
        #expect(stub.callCount == 1)
    }

    @Test func aRetryAfterBeyondTheCapIsNotWaitedFor() async throws {
        let stub = StubTransport { _, _ in Response(status: .tooManyRequests, headerFields: [.retryAfter: "3600"]) }
        let client = Client(transport: stub, interceptors: [RetryInterceptor(policy: quickPolicy())])
        let response = try await client.send(try Request(url: "http://a.test/"))
        #expect(response.head.status == .tooManyRequests)
        #expect(stub.callCount == 1)
        #expect(response.context.pipelineTimings.backoffs.isEmpty)
    }

    @Test func aRetryAfterWithinTheCapReplacesTheBackoff() async throws {
        let stub = sequencedStub {
            $0 == 1 ? Response(status: .serviceUnavailable, headerFields: [.retryAfter: "0"]) : Response(status: .ok)
        }
        let policy = RetryPolicy(backoff: RetryBackoff(base: .seconds(3600), random: { 1 }))
        let response = try await Client(transport: stub, interceptors: [RetryInterceptor(policy: policy)])
            .send(try Request(url: "http://a.test/"))
        #expect(response.head.status == .ok)
        #expect(response.context.pipelineTimings.backoffs == [.zero])
    }

    @Test func aWaitThatWouldCrossTheDeadlineIsNotStarted() async throws {
        let stub = StubTransport.status(.serviceUnavailable)
        let slow = RetryPolicy(backoff: RetryBackoff(base: .seconds(3600), cap: .seconds(3600), random: { 1 }))
        var request = try Request(url: "http://a.test/")
        request.options.timeout = .seconds(60)
        let response = try await Client(transport: stub, interceptors: [RetryInterceptor(policy: slow)]).send(request)
        #expect(response.head.status == .serviceUnavailable)
        #expect(stub.callCount == 1)

        var bounded = slow
        bounded.maxTotalDuration = .seconds(60)
        let again = StubTransport.status(.serviceUnavailable)
        _ = try await Client(transport: again, interceptors: [RetryInterceptor(policy: bounded)]).send(try Request(url: "http://a.test/"))
        #expect(again.callCount == 1)
    }

    @Test func cancellationDuringTheWaitEndsTheLoop() async throws {
        let stub = StubTransport.status(.serviceUnavailable)
        let bus = EventBus()
        let events = bus.subscribe()
        let slow = RetryPolicy(backoff: RetryBackoff(base: .seconds(3600), cap: .seconds(3600), random: { 1 }))
        let client = Client(transport: stub, interceptors: [RetryInterceptor(policy: slow)], events: bus)
        let task = Task { try await client.send(try Request(url: "http://a.test/")) }
        for await event in events where event.kind.name == "retrying" { break }
        task.cancel()
        let error = await #expect(throws: SwitchyardError.self) { try await task.value }
        #expect(error?.kind == .cancelled)
        #expect(stub.callCount == 1)
    }

    @Test func theBudgetCapsRetriesAcrossRequests() async throws {
        let stub = StubTransport.status(.serviceUnavailable)
        // A clock that stands still: on a slow machine the 50 sends may take longer than the window.
        let start = ContinuousClock.now
        let budget = RetryBudget(ratio: 0.1, minRetriesPerSecond: 0.2, window: .seconds(60), now: { start })
        let client = Client(transport: stub, interceptors: [RetryInterceptor(policy: quickPolicy(maxAttempts: 5), budget: budget)])
        for _ in 0..<50 { _ = try await client.send(try Request(url: "http://a.test/")) }
        // 50 requests + at most 10 % of them + 0.2/s × 60 s.
        #expect(stub.callCount <= 50 + 5 + 12)
        #expect(stub.callCount > 50)
    }
}
