import Foundation
import Histogram
import Switchyard

/// Keeps `concurrency` operations in flight until `total` are done or `maxDuration` has passed.
struct LoadLoop {
    let concurrency: Int
    let total: Int
    let maxDuration: Duration

    /// What a run measured.
    struct Result {
        /// Latencies of successful operations, in microseconds.
        var latencies = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000,
                                          numberOfSignificantValueDigits: .three)
        var bytes = 0
        var errors = 0
        var elapsed: Duration = .zero
        var firstError: String?

        var succeeded: Int { Int(latencies.totalCount) }
        var seconds: Double { max(elapsed.milliseconds / 1_000, 1e-9) }
        var requestsPerSecond: Double { Double(succeeded) / seconds }
        var megabytesPerSecond: Double { Double(bytes) / seconds / 1e6 }

        /// The latency at `percentile` in microseconds (0 when nothing succeeded).
        func microseconds(at percentile: Double) -> UInt64 {
            succeeded == 0 ? 0 : latencies.valueAtPercentile(percentile)
        }
    }

    /// Runs `operation` (which returns the body bytes it received) under the load shape.
    func run(_ operation: @escaping @Sendable () async throws -> Int) async -> Result {
        var result = Result()
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + maxDuration
        await withTaskGroup(of: (Duration, Int, String?).self) { group in
            @Sendable func timed() async -> (Duration, Int, String?) {
                let begin = clock.now
                do {
                    let bytes = try await operation()
                    return (begin.duration(to: clock.now), bytes, nil)
                } catch {
                    return (begin.duration(to: clock.now), 0, "\(error)")
                }
            }
            var issued = 0
            while issued < min(concurrency, total) {
                group.addTask { await timed() }
                issued += 1
            }
            for await (latency, bytes, error) in group {
                if let error {
                    result.errors += 1
                    if result.firstError == nil { result.firstError = error }
                } else {
                    _ = result.latencies.record(UInt64(max(1, (latency.milliseconds * 1_000).rounded())))
                    result.bytes += bytes
                }
                if issued < total, clock.now < deadline {
                    group.addTask { await timed() }
                    issued += 1
                }
            }
        }
        result.elapsed = start.duration(to: clock.now)
        return result
    }
}
