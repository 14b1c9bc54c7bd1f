import Foundation
import Synchronization

/// The arguments every reference client takes: `URL CONCURRENCY REQUESTS [MAX_SECONDS=30] [WARMUP=500]`.
public struct LoadArguments: Sendable {
    /// The URL every request fetches.
    public let url: String
    /// Requests in flight at once.
    public let concurrency: Int
    /// Measured requests.
    public let requests: Int
    /// The bound on the measured run.
    public let maxSeconds: Double
    /// Requests made before measuring, not counted.
    public let warmup: Int

    /// Reads the process's arguments; exits with 64 when they are not usable.
    public static func fromCommandLine() -> LoadArguments {
        let arguments = CommandLine.arguments
        guard arguments.count >= 4, let concurrency = Int(arguments[2]), let requests = Int(arguments[3]),
            concurrency > 0, requests > 0
        else {
            FileHandle.standardError.write(Data("usage: \(arguments[0]) URL CONCURRENCY REQUESTS [MAX_SECONDS=30] [WARMUP=500]\n".utf8))
            exit(64)
        }
        return LoadArguments(
            url: arguments[1], concurrency: concurrency, requests: requests,
            maxSeconds: arguments.count > 4 ? Double(arguments[4]) ?? 30 : 30,
            warmup: arguments.count > 5 ? Int(arguments[5]) ?? 500 : 500)
    }
}

/// What one run measured.
public struct LoadOutcome: Sendable {
    /// Latencies of successful requests, in microseconds.
    public var latencies: [Double] = []
    /// Failed requests.
    public var errors = 0
    /// Body bytes of successful requests.
    public var bytes = 0
    /// The first failure, for the report.
    public var firstError: String?
    /// How long the run took, in seconds.
    public var seconds = 0.0

    mutating func absorb(_ other: LoadOutcome) {
        latencies += other.latencies
        errors += other.errors
        bytes += other.bytes
        if firstError == nil { firstError = other.firstError }
    }
}

/// The load shape of `yard bench`: `concurrency` long-lived tasks, each taking request numbers from
/// a shared counter until `total` are issued or the time bound has passed; one clock reading per
/// request (the end of one request is the start of the next).
public func runLoad(
    concurrency: Int, total: Int, maxSeconds: Double, _ operation: @escaping @Sendable () async throws -> Int
) async -> LoadOutcome {
    let tickets = Tickets()
    let clock = ContinuousClock()
    let start = clock.now
    let deadline = start + .milliseconds(Int64(maxSeconds * 1_000))
    var outcome = LoadOutcome()
    await withTaskGroup(of: LoadOutcome.self) { group in
        for _ in 0..<min(concurrency, total) {
            group.addTask {
                var local = LoadOutcome()
                local.latencies.reserveCapacity(total / concurrency + 64)
                var begin = clock.now
                while tickets.take() < total, begin < deadline {
                    do {
                        let bytes = try await operation()
                        let end = clock.now
                        let (seconds, attoseconds) = begin.duration(to: end).components
                        local.latencies.append(Double(seconds) * 1e6 + Double(attoseconds) / 1e12)
                        local.bytes += bytes
                        begin = end
                    } catch {
                        local.errors += 1
                        if local.firstError == nil { local.firstError = "\(error)" }
                        begin = clock.now
                    }
                }
                return local
            }
        }
        for await partial in group { outcome.absorb(partial) }
    }
    let (seconds, attoseconds) = start.duration(to: clock.now).components
    outcome.seconds = max(Double(seconds) + Double(attoseconds) / 1e18, 1e-9)
    return outcome
}

/// Runs the warm-up, then the measured load, and prints the `RESULT` line `Benchmarks/compare.py` reads.
public func measure(client: String, _ arguments: LoadArguments, _ operation: @escaping @Sendable () async throws -> Int) async {
    if arguments.warmup > 0 {
        _ = await runLoad(concurrency: arguments.concurrency, total: arguments.warmup, maxSeconds: arguments.maxSeconds, operation)
    }
    let outcome = await runLoad(
        concurrency: arguments.concurrency, total: arguments.requests, maxSeconds: arguments.maxSeconds, operation)
    let sorted = outcome.latencies.sorted()
    func percentile(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[Int(p * Double(sorted.count - 1))] }
    let rps = Double(sorted.count) / outcome.seconds
    print(
        "RESULT client=\(client) url=\(arguments.url) c=\(arguments.concurrency) ok=\(sorted.count) errors=\(outcome.errors) "
            + String(format: "elapsed_s=%.3f rps=%.1f p50_us=%.1f p99_us=%.1f ", outcome.seconds, rps, percentile(0.5), percentile(0.99))
            + String(format: "bytes=%d mb_s=%.1f", outcome.bytes, Double(outcome.bytes) / outcome.seconds / 1e6))
    if let firstError = outcome.firstError {
        FileHandle.standardError.write(Data("first error: \(firstError)\n".utf8))
    }
}

/// Hands out request numbers to the load's tasks.
private final class Tickets: Sendable {
    private let next = Atomic<Int>(0)

    /// The next number, counting from 0.
    func take() -> Int { next.wrappingAdd(1, ordering: .relaxed).oldValue }
}
