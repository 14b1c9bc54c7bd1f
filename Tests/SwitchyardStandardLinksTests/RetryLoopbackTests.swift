import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// A retry interceptor that waits only when the server says so (zero jittered back-off).
private func promptRetry(
    maxAttempts: Int = 3, maxRetryAfter: Duration = RetryPolicy.defaultMaxRetryAfter,
    budget: RetryBudget? = RetryBudget()
) -> RetryInterceptor {
    RetryInterceptor(
        policy: RetryPolicy(
            maxAttempts: maxAttempts, backoff: RetryBackoff(random: { 0 }),
            maxRetryAfter: maxRetryAfter), budget: budget)
}

/// A body the transport can read only once.
private func singleUseBody(_ text: String) -> HTTPBody {
    HTTPBody(
        AsyncStream<[UInt8]> { continuation in
            continuation.yield(Array(text.utf8))
            continuation.finish()
        })
}

@Suite(.timeLimit(.minutes(2))) struct RetryLoopbackTests {
    @Test func aPostIsSentOnceUnlessItCarriesAnIdempotencyKey() async throws {
        try await withCurlClient(interceptors: [promptRetry()]) { client, server in
            let plain = try await client.send(try Request(method: .post, url: server.url("/flaky/plain/100"), body: HTTPBody("x")))
            #expect(plain.head.status == .serviceUnavailable)
            #expect(server.flakyArrivals(key: "plain").count == 1)

            let keyed = try Request(
                method: .post, url: server.url("/flaky/keyed/1"),
                headers: ["Idempotency-Key": "order-42"], body: HTTPBody("x"))
            let response = try await client.send(keyed)
            #expect(response.head.status == .ok)
            #expect(response.text == "ok after 1\n")
            #expect(server.flakyArrivals(key: "keyed").count == 2)
        }
    }

    @Test func retryAfterDelaysTheRetryOnTheServersClock() async throws {
        try await withCurlClient(interceptors: [promptRetry()]) { client, server in
            let response = try await client.send(try Request(url: server.url("/flaky/later/1?retry-after=1")))
            #expect(response.head.status == .ok)
            let arrivals = server.flakyArrivals(key: "later")
            try #require(arrivals.count == 2)
            #expect(arrivals[0].duration(to: arrivals[1]) >= .seconds(1))
            #expect(response.context.pipelineTimings.backoffs == [.seconds(1)])
        }
    }

    @Test func cancellingDuringTheBackoffStopsTheLoop() async throws {
        let bus = EventBus()
        let events = bus.subscribe()
        let retry = RetryPolicy(maxAttempts: 5, backoff: RetryBackoff(random: { 0 }), maxRetryAfter: .seconds(600))
        try await withCurlClient(configuration: ClientConfiguration(events: bus, redirects: nil, retry: retry)) { client, server in
            let task = Task { try await client.send(try Request(url: server.url("/flaky/cancel/100?retry-after=300"))) }
            for await event in events where event.kind.name == "retrying" { break }
            task.cancel()
            let error = await #expect(throws: SwitchyardError.self) { try await task.value }
            #expect(error?.kind == .cancelled)
            #expect(server.flakyArrivals(key: "cancel").count == 1)
        }
    }

    @Test func theBudgetBoundsExtraLoadDuringAnOutage() async throws {
        let budget = RetryBudget(ratio: 0.1, minRetriesPerSecond: 0.1, window: .seconds(60))
        try await withCurlClient(interceptors: [promptRetry(maxAttempts: 5, budget: budget)]) { client, server in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<4 {
                    group.addTask {
                        for _ in 0..<25 {
                            let response = try await client.send(try Request(url: server.url("/flaky/outage/1000000?w=\(worker)")))
                            #expect(response.head.status == .serviceUnavailable)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let arrivals = server.flakyArrivals(key: "outage").count
            // 100 requests, 10 % of them, and 0.1 per second over the 60 s window; without a budget: 500.
            #expect(arrivals <= 100 + 10 + 6)
            #expect(arrivals > 100)
        }
    }

    @Test func aStreamedSingleUseBodyIsNeverRetried() async throws {
        try await withCurlClient(interceptors: [promptRetry()]) { client, server in
            var request = try Request(
                method: .put, url: server.url("/flaky/stream/5"),
                headers: ["Idempotency-Key": "k"], body: singleUseBody("streamed"))
            request.options.retry = .allowingNonIdempotentRetry
            let response = try await client.send(request)
            #expect(response.head.status == .serviceUnavailable)
            #expect(server.flakyArrivals(key: "stream").count == 1)
        }
    }

    @Test func connectionResetsAreRetriedForIdempotentRequests() async throws {
        try await withCurlClient(interceptors: [promptRetry()]) { client, server in
            let error = await failure(of: client, try Request(url: server.url("/reset")))
            #expect(error?.kind == .connectionFailed)
            #expect(error?.attempt == 3)
            #expect(server.requestCount(path: "/reset") == 3)
            _ = await failure(of: client, try Request(method: .post, url: server.url("/reset")))
            #expect(server.requestCount(path: "/reset") == 4)
        }
    }
}
