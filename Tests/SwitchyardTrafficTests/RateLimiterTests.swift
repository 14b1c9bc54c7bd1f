import HTTPTypes
import Switchyard
import SwitchyardTestSupport
import SwitchyardTesting
import SwitchyardTraffic
import Testing

/// A clock that moves only when the test says: a sleeper wakes when ``advance(by:)`` reaches its
/// deadline, or throws `CancellationError` when its task is cancelled. Drives a ``RateLimiter``'s
/// refills without any real time passing.
final class SteppedClock: Clock {
    /// A point on the stepped clock: the time advanced since it was made.
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [UInt64: Sleeper] = [:]
        var cancelledBeforeSleeping: Set<UInt64> = []
        var nextID: UInt64 = 0
    }

    private let state = Lock(State())

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .nanoseconds(1) }
    /// Tasks asleep on this clock now.
    var sleepers: Int { state.withLock { $0.sleepers.count } }
    /// Sleeps begun on this clock so far, woken or not.
    var sleepsBegun: UInt64 { state.withLock { $0.nextID } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let wake: Result<Void, any Error>? = state.withLock { state in
                    if state.cancelledBeforeSleeping.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let wake { continuation.resume(with: wake) }
            }
        } onCancel: {
            let sleeper = state.withLock { state in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelledBeforeSleeping.insert(id)
                    return Sleeper?.none
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward and wakes the sleepers whose deadline it reached.
    /// - Returns: How many it woke.
    @discardableResult
    func advance(by duration: Duration) -> Int {
        let woken = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return Array(due.values)
        }
        for sleeper in woken { sleeper.continuation.resume() }
        return woken.count
    }

    /// Moves the clock forward while `limiter` has requests queued, and returns once the limiter
    /// has acted on it: first waits until the limiter is asleep on the clock (its bucket's task
    /// waits for the next token), then advances, then waits until each sleeper the advance woke has
    /// gone back to sleep or the queue has emptied. A "not yet" checked afterwards does not race
    /// the limiter's own task.
    func advance(
        by duration: Duration, observedBy limiter: RateLimiter, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        #expect(await eventually { sleepers > 0 }, "the limiter waits on the clock", sourceLocation: sourceLocation)
        let before = sleepsBegun
        let woken = advance(by: duration)
        guard woken > 0 else { return }  // nothing woke: the limiter cannot have moved
        #expect(
            await eventually { sleepsBegun >= before + UInt64(woken) || limiter.queued == 0 },
            "the limiter acted on the advance", sourceLocation: sourceLocation)
    }
}

/// A client over `stub` whose chain has only the rate limit (and the concurrency limit, if given).
private func limitedClient(_ stub: StubTransport, _ limiter: RateLimiter, retry: RetryPolicy? = nil) throws -> Client {
    var configuration = ClientConfiguration(events: nil, redirects: nil, retry: retry, retryBudget: nil)
    configuration.plugins.append(.rateLimit(limiter))
    return try Client(transport: stub, configuration: configuration)
}

private func get(_ url: String, priority: RequestPriority = .utility, timeout: Duration? = nil) throws -> Request {
    var request = try Request(url: url)
    request.options.priority = priority
    request.options.timeout = timeout
    return request
}

@Suite(.timeLimit(.minutes(2))) struct RateLimiterTests {
    @Test func theBurstGoesAtOnceAndTheNextRequestWaitsForItsToken() async throws {
        let clock = SteppedClock()
        let limiter = RateLimiter(requestsPerSecond: 1, burst: 2, clock: clock)
        let stub = StubTransport.status(.ok)
        let client = try limitedClient(stub, limiter)
        #expect(limiter.availableTokens(forHost: "a.test") == 2)
        _ = try await client.send(try get("http://a.test/1"))
        _ = try await client.send(try get("http://a.test/2"))
        #expect(stub.callCount == 2)
        #expect(limiter.availableTokens(forHost: "a.test") == 0)

        let third = Task { try await client.send(try get("http://a.test/3")) }
        #expect(await eventually { limiter.queued == 1 })
        await clock.advance(by: .milliseconds(500), observedBy: limiter)  // half a token
        #expect(limiter.queued == 1)
        #expect(stub.callCount == 2)
        clock.advance(by: .milliseconds(500))
        let response = try await third.value
        #expect(stub.callCount == 3)
        #expect(limiter.queued == 0)
        #expect(response.context.pipelineTimings.queued != nil)
        #expect(await eventually { clock.sleepers == 0 })  // the queue is empty: nothing waits for a token
    }

    @Test func aCancelledRequestLeavesTheQueueWithoutTakingAToken() async throws {
        let clock = SteppedClock()
        let limiter = RateLimiter(requestsPerSecond: 1, burst: 1, clock: clock)
        let stub = StubTransport.status(.ok)
        let client = try limitedClient(stub, limiter)
        _ = try await client.send(try get("http://a.test/first"))

        let waiting = Task { try await client.send(try get("http://a.test/cancelled")) }
        #expect(await eventually { limiter.queued == 1 })
        waiting.cancel()
        let error = await #expect(throws: SwitchyardError.self) { try await waiting.value }
        #expect(error?.kind == .cancelled)
        #expect(limiter.queued == 0)
        #expect(await eventually { clock.sleepers == 0 })  // the bucket's wait for a token stopped

        clock.advance(by: .seconds(1))
        #expect(limiter.availableTokens(forHost: "a.test") == 1)  // the cancelled request took none
        _ = try await client.send(try get("http://a.test/next"))
        #expect(stub.requests.map(\.head.path) == ["/first", "/next"])
    }

    @Test func aQueuedRequestFailsWithATimeoutAtItsDeadline() async throws {
        let clock = SteppedClock()
        let limiter = RateLimiter(requestsPerSecond: 1, burst: 1, clock: clock)
        let stub = StubTransport.status(.ok)
        let client = try limitedClient(stub, limiter)
        _ = try await client.send(try get("http://a.test/first"))
        // The clock never moves: only the request's own deadline (real time) can end the wait.
        let error = await #expect(throws: SwitchyardError.self) {
            try await client.send(try get("http://a.test/late", timeout: .milliseconds(50)))
        }
        #expect(error?.kind == .timeout)
        #expect(error?.message.contains("rate limit") == true)
        #expect(limiter.queued == 0)
        #expect(stub.callCount == 1)
        clock.advance(by: .seconds(1))
        #expect(limiter.availableTokens(forHost: "a.test") == 1)
    }

    @Test func tokensGoToTheHighestPriorityFirstThenInArrivalOrder() async throws {
        let clock = SteppedClock()
        let limiter = RateLimiter(requestsPerSecond: 1, burst: 1, clock: clock)
        let stub = StubTransport.status(.ok)
        let client = try limitedClient(stub, limiter)
        _ = try await client.send(try get("http://a.test/first"))
        var tasks: [Task<BufferedResponse, any Error>] = []
        let queued: [(String, RequestPriority)] = [
            ("b1", .background), ("u1", .utility), ("i1", .userInitiated), ("u2", .utility), ("i2", .userInitiated)
        ]
        for (index, (name, priority)) in queued.enumerated() {
            let request = try get("http://a.test/\(name)", priority: priority)
            tasks.append(Task { try await client.send(request) })
            #expect(await eventually { limiter.queued == index + 1 })
        }
        for sent in 2...6 {
            clock.advance(by: .seconds(1))
            #expect(await eventually { stub.callCount == sent })
        }
        for task in tasks { _ = try await task.value }
        #expect(stub.requests.map(\.head.path) == ["/first", "/i1", "/i2", "/u1", "/u2", "/b1"])
    }

    @Test func eachHostHasItsOwnBucketUnlessTheBucketIsShared() async throws {
        let stub = StubTransport.status(.ok)
        let perHost = RateLimiter(requestsPerSecond: 1, burst: 1, clock: SteppedClock())
        let client = try limitedClient(stub, perHost)
        _ = try await client.send(try get("http://a.test/"))
        _ = try await client.send(try get("http://B.test/"))  // another host: its own full bucket
        #expect(stub.callCount == 2)
        #expect(perHost.availableTokens(forHost: "b.test") == 0)

        let clock = SteppedClock()
        let shared = RateLimiter(requestsPerSecond: 1, burst: 1, keying: .shared, clock: clock)
        let sharedClient = try limitedClient(stub, shared)
        _ = try await sharedClient.send(try get("http://a.test/"))
        let other = Task { try await sharedClient.send(try get("http://b.test/")) }
        #expect(await eventually { shared.queued == 1 })
        clock.advance(by: .seconds(1))
        _ = try await other.value
        #expect(stub.callCount == 4)
    }

    @Test func requestsOutsideTheScopeTakeNoToken() async throws {
        let clock = SteppedClock()
        let limiter = RateLimiter(
            requestsPerSecond: 1, burst: 1, scope: RequestScope(pathPrefixes: ["/search"]), clock: clock)
        let stub = StubTransport.status(.ok)
        let client = try limitedClient(stub, limiter)
        for _ in 0..<5 { _ = try await client.send(try get("http://a.test/other")) }
        #expect(limiter.availableTokens(forHost: "a.test") == 1)
        _ = try await client.send(try get("http://a.test/search?q=1"))
        #expect(limiter.availableTokens(forHost: "a.test") == 0)
    }

    @Test func everyAttemptTakesAToken() async throws {
        let limiter = RateLimiter(requestsPerSecond: 1, burst: 5, clock: SteppedClock())
        let stub = StubTransport.status(.serviceUnavailable)
        let client = try limitedClient(stub, limiter, retry: RetryPolicy(maxAttempts: 3, backoff: RetryBackoff(random: { 0 })))
        _ = try await client.send(try get("http://a.test/"))
        #expect(stub.callCount == 3)
        #expect(limiter.availableTokens(forHost: "a.test") == 2)
    }

    @Test func theBucketRefillsUpToTheBurstOnly() async throws {
        let clock = SteppedClock()
        let limiter = RateLimiter(requestsPerSecond: 2, burst: 3, clock: clock)
        let client = try limitedClient(StubTransport.status(.ok), limiter)
        for _ in 0..<3 { _ = try await client.send(try get("http://a.test/")) }
        clock.advance(by: .milliseconds(750))
        #expect(limiter.availableTokens(forHost: "a.test") == 1.5)
        clock.advance(by: .seconds(3600))
        #expect(limiter.availableTokens(forHost: "a.test") == 3)
    }

    @Test func manyWaitersOnTheRealClockSomeCancelledAllEndAndTheQueueEmpties() async throws {
        let limiter = RateLimiter(requestsPerSecond: 2_000, burst: 1)
        let stub = StubTransport.status(.ok)
        let client = try limitedClient(stub, limiter)
        let outcomes = await withTaskGroup(of: SwitchyardError.Kind?.self) { group in
            var tasks: [Task<BufferedResponse, any Error>] = []
            for index in 0..<200 {
                let request = try! get("http://a.test/\(index)", priority: RequestPriority.allCases[index % 3])
                tasks.append(Task { try await client.send(request) })
            }
            for (index, task) in tasks.enumerated() where index % 3 == 1 { task.cancel() }
            for task in tasks {
                group.addTask {
                    do {
                        _ = try await task.value
                        return nil
                    } catch {
                        return (error as? SwitchyardError)?.kind
                    }
                }
            }
            return await group.reduce(into: [SwitchyardError.Kind?]()) { $0.append($1) }
        }
        #expect(outcomes.count == 200)
        #expect(outcomes.allSatisfy { $0 == nil || $0 == .cancelled })
        #expect(stub.callCount == outcomes.filter { $0 == nil }.count)
        #expect(limiter.queued == 0)
    }

    @Test func outOfRangeLimitsAreClampedAndTheRateLimitSitsAboveTheConcurrencyLimit() throws {
        let limits = RateLimits(requestsPerSecond: .nan, burst: -3)
        #expect(limits.requestsPerSecond == RateLimits.minimumRequestsPerSecond)
        #expect(limits.burst == 1)
        #expect(RateLimits(requestsPerSecond: .infinity, burst: 1).requestsPerSecond == RateLimits.maximumRequestsPerSecond)
        var tampered = RateLimits(requestsPerSecond: 1, burst: 1)
        tampered.requestsPerSecond = -5
        #expect(RateLimiter(limits: tampered).limits.requestsPerSecond == RateLimits.minimumRequestsPerSecond)

        var configuration = ClientConfiguration()
        configuration.plugins = [
            .concurrencyLimit(ConcurrencyLimiter(maxExchanges: 4)),
            .rateLimit(RateLimiter(requestsPerSecond: 5, burst: 10)),
            .rateLimit(RateLimiter(requestsPerSecond: 1, burst: 1, keying: .shared), name: "searchRate")
        ]
        let client = try Client(transport: StubTransport.status(.ok), configuration: configuration)
        let names = client.chain.map(\.name)
        let rate = try #require(names.firstIndex(of: "RateLimitInterceptor"))
        let concurrency = try #require(names.firstIndex(of: "ConcurrencyLimitInterceptor"))
        #expect(rate < concurrency)
        #expect(names.filter { $0 == "RateLimitInterceptor" }.count == 2)
    }

    /// A stub answering `/busy` with `status` and `Retry-After: value`, anything else with `200`.
    private static func busyStub(_ status: HTTPResponse.Status, retryAfter value: String) -> StubTransport {
        StubTransport { request, _ in
            guard request.head.path == "/busy" else { return Response(status: .ok) }
            return Response(status: status, headerFields: [.retryAfter: value])
        }
    }

    @Test func aTooManyRequestsAnswerHoldsOnlyTheBucketOfItsHost() async throws {
        let clock = SteppedClock()
        let limiter = RateLimiter(requestsPerSecond: 10, burst: 5, clock: clock)
        let stub = Self.busyStub(.tooManyRequests, retryAfter: "10")
        let client = try limitedClient(stub, limiter)
        #expect(try await client.send(try get("http://a.test/busy")).head.status == .tooManyRequests)
        _ = try await client.send(try get("http://b.test/free"))  // another host: not held
        #expect(stub.callCount == 2)

        let held = Task { try await client.send(try get("http://a.test/later")) }
        #expect(await eventually { limiter.queued == 1 })
        await clock.advance(by: .milliseconds(9_999), observedBy: limiter)
        #expect(limiter.queued == 1)
        clock.advance(by: .milliseconds(1))
        _ = try await held.value
        #expect(stub.requests.map(\.head.path) == ["/busy", "/free", "/later"])
    }

    @Test func aLongRetryAfterHoldsTheBucketForTheMaximumOnly() async throws {
        let clock = SteppedClock()
        let limits = RateLimits(requestsPerSecond: 10, burst: 5, maxRetryAfterHold: .seconds(60))
        let limiter = RateLimiter(limits: limits, clock: clock)
        let stub = Self.busyStub(.serviceUnavailable, retryAfter: "3600")
        let client = try limitedClient(stub, limiter)
        _ = try await client.send(try get("http://a.test/busy"))
        let held = Task { try await client.send(try get("http://a.test/later")) }
        #expect(await eventually { limiter.queued == 1 })
        await clock.advance(by: .seconds(59), observedBy: limiter)
        #expect(limiter.queued == 1)
        clock.advance(by: .seconds(1))
        _ = try await held.value
        #expect(stub.callCount == 2)
    }

    @Test(arguments: [
        (RateLimits.defaultMaxRetryAfterHold, HTTPResponse.Status.ok, "10"),  // not a 429 or 503
        (RateLimits.defaultMaxRetryAfterHold, HTTPResponse.Status.serviceUnavailable, "soon"),  // not a valid value
        (nil, HTTPResponse.Status.tooManyRequests, "10")  // the limits ignore such answers
    ])
    func otherAnswersHoldNothing(maxHold: Duration?, status: HTTPResponse.Status, retryAfter: String) async throws {
        let clock = SteppedClock()
        let limits = RateLimits(requestsPerSecond: 10, burst: 5, maxRetryAfterHold: maxHold)
        let limiter = RateLimiter(limits: limits, clock: clock)
        let stub = Self.busyStub(status, retryAfter: retryAfter)
        let client = try limitedClient(stub, limiter)
        _ = try await client.send(try get("http://a.test/busy"))
        _ = try await client.send(try get("http://a.test/next"))  // at once: the clock never moves
        #expect(stub.callCount == 2)
        #expect(limiter.availableTokens(forHost: "a.test") == 3)
    }
}
