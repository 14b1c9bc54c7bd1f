import Foundation
import HTTPTypes
import Switchyard
import Testing

@Suite struct RetryBackoffTests {
    @Test func ceilingGrowsExponentiallyUpToTheCap() {
        let backoff = RetryBackoff(base: .milliseconds(100), multiplier: 2, cap: .seconds(1))
        let ceilings = (1...6).map { backoff.ceiling(forRetry: $0) }
        #expect(
            ceilings == [
                .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800),
                .seconds(1), .seconds(1)
            ])
        #expect(backoff.ceiling(forRetry: 10_000) == .seconds(1))
    }

    @Test func fullJitterStaysWithinZeroAndTheCeiling() {
        let ceiling = Duration.milliseconds(400)
        let draw: @Sendable (Double) -> Duration = { value in
            RetryBackoff(base: .milliseconds(100), multiplier: 2, cap: .seconds(1), random: { value }).delay(forRetry: 3)
        }
        #expect(draw(0) == .zero)
        #expect(draw(0.5) == .milliseconds(200))
        #expect(draw(0.999) < ceiling)
        #expect(draw(7) <= ceiling)  // out-of-range sources are clamped
        #expect(draw(-1) == .zero)
        #expect(draw(.nan) == .zero)
        let system = RetryBackoff(base: .milliseconds(100), multiplier: 2, cap: .seconds(1))
        for _ in 0..<200 {
            let delay = system.delay(forRetry: 3)
            #expect(delay >= .zero && delay <= ceiling)
        }
    }

    @Test func degenerateSettingsDoNotCrash() {
        let backoff = RetryBackoff(base: .seconds(5), multiplier: .infinity, cap: .seconds(1), random: { 1 })
        #expect(backoff.delay(forRetry: 4) == .seconds(1))
        #expect(RetryBackoff(base: .seconds(-1), random: { 1 }).delay(forRetry: 1) == .zero)
    }
}

@Suite struct RetryAfterTests {
    private static let epochOfExample = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT

    @Test func deltaSeconds() {
        #expect(RetryAfter.delay(from: "120") == .seconds(120))
        #expect(RetryAfter.delay(from: " 3 ") == .seconds(3))
        #expect(RetryAfter.delay(from: "0") == .zero)
        #expect(RetryAfter.delay(from: "99999999999999999999999") == .seconds(Int64.max))
    }

    @Test func imfFixdate() {
        let now = Self.epochOfExample.addingTimeInterval(-90)
        #expect(RetryAfter.delay(from: "Sun, 06 Nov 1994 08:49:37 GMT", now: now) == .seconds(90))
        #expect(RetryAfter.delay(from: "Sun, 06 Nov 1994 08:49:37 GMT", now: Self.epochOfExample.addingTimeInterval(5)) == .zero)
        let epoch = Date(timeIntervalSince1970: 0)
        #expect(RetryAfter.delay(from: "Thu, 01 Jan 1970 00:00:10 GMT", now: epoch) == .seconds(10))
        #expect(RetryAfter.delay(from: "Tue, 29 Feb 2000 12:00:00 GMT", now: epoch) == .seconds(951_825_600))
    }

    @Test func invalidValuesAreIgnored() {
        for value in [
            "", "soon", "-1", "1.5", "0x10", "Sunday, 06-Nov-94 08:49:37 UTC", "Sun Nov  6 08:49:37 94",
            "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT"
        ] {
            #expect(RetryAfter.delay(from: value) == nil, "\(value)")
        }
    }
}

/// A clock the test moves by hand.
private final class ManualClock: Sendable {
    private let instant = Lock(ContinuousClock.now)
    var now: ContinuousClock.Instant { instant.withLock { $0 } }
    func advance(_ duration: Duration) { instant.withLock { $0 = $0.advanced(by: duration) } }
}

@Suite struct RetryBudgetTests {
    @Test func retriesAreAFractionOfRecentRequests() {
        let clock = ManualClock()
        let budget = RetryBudget(ratio: 0.5, minRetriesPerSecond: 0, window: .seconds(10), now: { clock.now })
        #expect(!budget.consumeRetry())
        for _ in 0..<4 { budget.recordRequest() }
        #expect(budget.availableRetries == 2)
        #expect(budget.consumeRetry())
        #expect(budget.consumeRetry())
        #expect(!budget.consumeRetry())
        clock.advance(.seconds(11))  // everything slid out of the window
        #expect(!budget.consumeRetry())
        budget.recordRequest()
        budget.recordRequest()
        #expect(budget.consumeRetry())
        #expect(!budget.consumeRetry())
    }

    @Test func theMinimumAllowsRetriesWithoutTraffic() {
        let clock = ManualClock()
        let budget = RetryBudget(ratio: 0, minRetriesPerSecond: 0.5, window: .seconds(4), now: { clock.now })
        #expect(budget.consumeRetry())
        #expect(budget.consumeRetry())
        #expect(!budget.consumeRetry())
        clock.advance(.seconds(2))  // half the window: the retries still count
        #expect(!budget.consumeRetry())
        clock.advance(.seconds(3))
        #expect(budget.consumeRetry())
    }

    @Test func sharedSafelyAcrossTasks() async {
        let budget = RetryBudget(ratio: 0.1, minRetriesPerSecond: 0, window: .seconds(60))
        let granted = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    budget.recordRequest()
                    return budget.consumeRetry()
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(granted <= 20)
        #expect(granted >= 1)
    }
}

@Suite struct RetryPolicyTests {
    @Test func safeToRepeat() throws {
        let policy = RetryPolicy()
        #expect(policy.allowsRepeating(try Request(url: "http://a.test/")))
        #expect(policy.allowsRepeating(try Request(method: .put, url: "http://a.test/", body: HTTPBody("x"))))
        #expect(!policy.allowsRepeating(try Request(method: .post, url: "http://a.test/")))
        #expect(!policy.allowsRepeating(try Request(method: .patch, url: "http://a.test/")))
        #expect(policy.allowsRepeating(try Request(method: .post, url: "http://a.test/", headers: ["Idempotency-Key": "k1"])))
        #expect(policy.applying(.allowingNonIdempotentRetry).allowsRepeating(try Request(method: .post, url: "http://a.test/")))
        let stream = HTTPBody(AsyncStream<[UInt8]> { $0.finish() })
        #expect(
            !policy.applying(.allowingNonIdempotentRetry).allowsRepeating(
                try Request(method: .put, url: "http://a.test/", headers: ["Idempotency-Key": "k"], body: stream)))
    }

    @Test func overridesApplyPerField() {
        let policy = RetryPolicy(maxAttempts: 5, retriesNonIdempotentRequests: true)
        #expect(policy.applying(nil).maxAttempts == 5)
        #expect(policy.applying(.disabled).maxAttempts == 1)
        #expect(policy.applying(.disabled).retriesNonIdempotentRequests)
        #expect(!policy.applying(RetryOverride(allowsNonIdempotentRetry: false)).retriesNonIdempotentRequests)
    }

    @Test func deadlineIsTheEarlierOfExchangeAndPolicy() {
        let start = ContinuousClock.now
        let context = ExchangeContext(options: RequestOptions(timeout: .seconds(10)), startedAt: start)
        #expect(RetryPolicy().deadline(for: context) == start.advanced(by: .seconds(10)))
        #expect(RetryPolicy(maxTotalDuration: .seconds(3)).deadline(for: context) == start.advanced(by: .seconds(3)))
        #expect(RetryPolicy(maxTotalDuration: .seconds(30)).deadline(for: context) == start.advanced(by: .seconds(10)))
        #expect(RetryPolicy().deadline(for: ExchangeContext(startedAt: start)) == nil)
    }
}
