import Foundation
import Switchyard

/// Keeps `concurrency` operations in flight until `total` are done or `maxSeconds` have passed.
struct LoadLoop {
    let concurrency: Int
    let total: Int
    let maxSeconds: Double

    /// What a run measured.
    struct Result {
        var latencies: [Duration] = []
        var bytes = 0
        var errors = 0
        var elapsed: Duration = .zero
        var firstError: String?

        /// The `RESULT …` line the anchors' summarizer reads.
        func resultLine(client: String, url: String, concurrency: Int) -> String {
            let sorted = latencies.sorted()
            func percentile(_ p: Double) -> String {
                guard !sorted.isEmpty else { return "nan" }
                let index = min(sorted.count - 1, max(0, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1))
                return String(format: "%.1f", sorted[index].milliseconds * 1_000)
            }
            let seconds = elapsed.milliseconds / 1_000
            let rps = Double(latencies.count) / seconds
            let megabytesPerSecond = Double(bytes) / seconds / 1e6
            return "RESULT client=\(client) url=\(url) c=\(concurrency) ok=\(latencies.count) errors=\(errors) "
                + String(format: "elapsed_s=%.3f rps=%.1f ", seconds, rps)
                + "p50_us=\(percentile(50)) p99_us=\(percentile(99)) bytes=\(bytes) "
                + String(format: "mb_s=%.1f", megabytesPerSecond)
        }
    }

    /// Runs `operation` (which returns the body bytes it received) under the load shape.
    func run(_ operation: @escaping @Sendable () async throws -> Int) async -> Result {
        var result = Result()
        result.latencies.reserveCapacity(total)
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + .milliseconds(Int64(maxSeconds * 1_000))
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
                    result.latencies.append(latency)
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
