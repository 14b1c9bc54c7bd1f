import Foundation
import Histogram
import Switchyard
import Synchronization

/// Keeps `concurrency` operations in flight until `total` are done or `maxDuration` has passed.
struct LoadLoop {
    let concurrency: Int
    let total: Int
    let maxDuration: Duration
    /// Start a child task per request, refilled by the parent as each completes, instead of
    /// long-lived workers: the shape of clients that spawn a task per call.
    var taskPerRequest = false
    /// The executor the load's tasks prefer (`Transport.taskExecutor`), or `nil` for the global pool.
    var executor: (any TaskExecutor)? = nil

    /// What a run measured.
    struct Result {
        /// Latencies of successful operations, in microseconds.
        var latencies = Histogram<UInt64>(
            lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000,
            numberOfSignificantValueDigits: .three)
        var bytes = 0
        var errors = 0
        var elapsed: Duration = .zero
        var firstError: String?
        /// Latencies (µs) recorded during the run and added to ``latencies`` afterwards (``merge(_:)``),
        /// so the load loop itself only appends to an array per request, as the C client does.
        private var pending: [UInt64] = []

        var succeeded: Int { Int(latencies.totalCount) }
        var seconds: Double { max(elapsed.milliseconds / 1_000, 1e-9) }
        var requestsPerSecond: Double { Double(succeeded) / seconds }
        var megabytesPerSecond: Double { Double(bytes) / seconds / 1e6 }

        /// Makes room for `count` latencies, so recording does not reallocate during the run.
        mutating func reserve(_ count: Int) { pending.reserveCapacity(count) }

        /// Counts one operation that took `latency` and received `bytes`, or failed with `error`.
        mutating func record(_ latency: Duration, bytes: Int, error: String?) {
            if let error {
                errors += 1
                if firstError == nil { firstError = error }
            } else {
                let (seconds, attoseconds) = latency.components
                pending.append(UInt64(max(1, seconds &* 1_000_000 &+ attoseconds / 1_000_000_000_000)))
                self.bytes += bytes
            }
        }

        /// Adds another worker's figures (not its elapsed time).
        mutating func merge(_ other: Result) {
            flush()
            for latency in other.pending { _ = latencies.record(latency) }
            latencies.add(other.latencies)
            bytes += other.bytes
            errors += other.errors
            if firstError == nil { firstError = other.firstError }
        }

        /// Moves the pending latencies into the histogram.
        mutating func flush() {
            for latency in pending { _ = latencies.record(latency) }
            pending.removeAll()
        }

        /// The latency at `percentile` in microseconds (0 when nothing succeeded).
        func microseconds(at percentile: Double) -> UInt64 {
            succeeded == 0 ? 0 : latencies.valueAtPercentile(percentile)
        }
    }

    /// Runs `operation` (which returns the body bytes it received) under the load shape.
    func run(_ operation: @escaping @Sendable () async throws -> Int) async -> Result {
        if taskPerRequest { return await runTaskPerRequest(operation) }
        // One long-lived worker per slot, each taking tickets until `total` are issued: no task is
        // created per request and no parent is woken per completion, so the harness adds nothing to
        // the client's own scheduling hops. Workers keep their own figures; they are merged at the end.
        let tickets = TicketCounter()
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + maxDuration
        var result = Result()
        var elapsedAtEnd: Duration = .zero
        @Sendable func worker() async -> Result {
            var local = Result()
            local.reserve(min(total, 1 << 20) / max(1, concurrency) + 64)
            // One clock reading per request: the end of one request is the start of the next.
            var begin = clock.now
            while tickets.take() < total, begin < deadline {
                do {
                    let bytes = try await operation()
                    let end = clock.now
                    local.record(begin.duration(to: end), bytes: bytes, error: nil)
                    begin = end
                } catch {
                    let end = clock.now
                    local.record(begin.duration(to: end), bytes: 0, error: "\(error)")
                    begin = end
                }
            }
            return local
        }
        await withTaskGroup(of: Result.self) { group in
            for _ in 0..<max(0, min(concurrency, total)) {
                group.addTask(preferring: executor) { await worker() }
            }
            var partials: [Result] = []
            for await partial in group { partials.append(partial) }
            elapsedAtEnd = start.duration(to: clock.now)
            for partial in partials { result.merge(partial) }
        }
        result.elapsed = elapsedAtEnd
        return result
    }

    /// A task group with `concurrency` children, a new child per completion.
    private func runTaskPerRequest(_ operation: @escaping @Sendable () async throws -> Int) async -> Result {
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
                group.addTask(preferring: executor) { await timed() }
                issued += 1
            }
            for await (latency, bytes, error) in group {
                result.record(latency, bytes: bytes, error: error)
                if issued < total, clock.now < deadline {
                    group.addTask(preferring: executor) { await timed() }
                    issued += 1
                }
            }
        }
        result.elapsed = start.duration(to: clock.now)
        result.flush()
        return result
    }
}

/// Hands out request numbers to the load loop's workers.
private final class TicketCounter: Sendable {
    private let next = Atomic<Int>(0)

    /// The next ticket, counting from 0.
    func take() -> Int { next.wrappingAdd(1, ordering: .relaxed).oldValue }
}

extension TaskGroup where ChildTaskResult: Sendable {
    /// Adds a child task that prefers `executor`, or a plain child task when it is `nil`: the
    /// preference form, even with `nil`, made the runtime look the preference up on every task switch.
    mutating func addTask(preferring executor: (any TaskExecutor)?, operation: @escaping @Sendable () async -> ChildTaskResult) {
        if let executor {
            addTask(executorPreference: executor, operation: operation)
        } else {
            addTask(operation: operation)
        }
    }
}
