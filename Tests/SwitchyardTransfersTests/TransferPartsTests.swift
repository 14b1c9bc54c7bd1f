import Testing

@testable import Switchyard
@testable import SwitchyardCore
@testable import SwitchyardTransfers

@Suite struct ContentRangeTests {
    @Test func parsesARangeWithItsTotal() {
        let range = ContentRange("bytes 100-199/1000")
        #expect(range?.start == 100)
        #expect(range?.end == 199)
        #expect(range?.total == 1000)
    }

    @Test func parsesAnUnknownTotal() {
        #expect(ContentRange("bytes 0-9/*")?.total == nil)
        #expect(ContentRange("bytes 0-9/*")?.end == 9)
    }

    @Test(arguments: ["bytes */1000", "bytes 10-5/100", "items 0-1/2", "bytes 0-99/50", "bytes -1-2/3", "", "bytes"])
    func refusesMalformedOrUnsatisfiedRanges(value: String) {
        #expect(ContentRange(value) == nil)
    }
}

@Suite struct ProgressReporterTests {
    @Test func aBurstIsThrottledAndEndsWithOneFinalUpdate() async {
        let reporter = ProgressReporter()
        reporter.begin(completed: 0, expected: 10_000)
        for _ in 0..<10_000 { reporter.advance(by: 1) }
        reporter.finish()
        reporter.advance(by: 1)  // ignored once finished
        var updates: [TransferProgress] = []
        for await update in reporter.updates { updates.append(update) }
        #expect(updates.count < 10_000)
        #expect(updates.filter(\.isFinal).count == 1)
        #expect(
            updates.last
                == TransferProgress(
                    completedBytes: 10_000, expectedBytes: 10_000,
                    bytesPerSecond: updates.last?.bytesPerSecond ?? 0, isFinal: true))
        #expect(updates.last?.fractionCompleted == 1)
    }

    @Test(.timeLimit(.minutes(2)))
    func bytesCountedInsideAnIntervalAreReportedWithoutMoreArriving() async {
        let reporter = ProgressReporter()
        reporter.begin(completed: 0, expected: 1_000)
        reporter.advance(by: 10)  // the first advance after begin may be inside the interval
        reporter.advance(by: 90)
        // No finish: the trailing update must come on its own.
        for await update in reporter.updates where update.completedBytes == 100 {
            #expect(!update.isFinal)
            break
        }
    }

    @Test func anUnknownTotalHasNoFraction() {
        #expect(TransferProgress(completedBytes: 5, expectedBytes: nil, bytesPerSecond: 0).fractionCompleted == nil)
    }
}
