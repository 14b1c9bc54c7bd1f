import Switchyard
import Synchronization

extension SoakRun {
    /// Runs an operation in its own task and waits for it at most `limit`: `nil` when it has not
    /// ended by then (the task is then cancelled and left behind: the caller counts it as hung).
    enum Watch {
        static func run<Value: Sendable>(limit: Duration, _ operation: @escaping @Sendable () async -> Value) async -> Value? {
            let race = Race<Value>()
            return await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
                race.install(continuation)
                let work = Task { race.finish(await operation()) }
                let timer = Task {
                    try? await Task.sleep(for: limit)
                    if race.finish(nil) { work.cancel() }
                }
                race.onFinish { timer.cancel() }
            }
        }
    }

    /// Watches many operations for hanging with one sweeping task instead of a timer each: a cancelled
    /// `Task.sleep` keeps its timer (and that memory) until its deadline would have passed, so a timer
    /// per request would put thousands of the harness's own timers into the run's memory figures.
    final class HangWatch: Sendable {
        private struct Watched {
            let due: ContinuousClock.Instant
            let expire: @Sendable () -> Void
        }

        private let watched = Lock<(lastKey: Int, entries: [Int: Watched])>((0, [:]))

        /// Runs `operation` in its own task and waits for it at most about `limit` (plus the sweep
        /// interval): `nil` when it has not ended by then (the task is then cancelled and left behind).
        func run<Value: Sendable>(limit: Duration, _ operation: @escaping @Sendable () async -> Value) async -> Value? {
            let race = Race<Value>()
            return await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
                race.install(continuation)
                let work = Task { race.finish(await operation()) }
                let due = ContinuousClock.now.advanced(by: limit)
                let key = watched.withLock { state in
                    state.lastKey += 1
                    state.entries[state.lastKey] = Watched(due: due) { if race.finish(nil) { work.cancel() } }
                    return state.lastKey
                }
                race.onFinish { [self] in _ = watched.withLock { $0.entries.removeValue(forKey: key) } }
            }
        }

        /// Expires the overdue operations every `interval`, until cancelled.
        func sweep(every interval: Duration = .milliseconds(200)) async {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                let now = ContinuousClock.now
                let overdue = watched.withLock { state -> [Watched] in
                    let overdue = state.entries.filter { $0.value.due <= now }
                    for key in overdue.keys { state.entries[key] = nil }
                    return Array(overdue.values)
                }
                for entry in overdue { entry.expire() }
            }
        }
    }

    /// Whichever of the operation and the timer ends first resumes the continuation, once.
    final class Race<Value: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Value?, Never>?
            var finished = false
            var onFinish: (@Sendable () -> Void)?
        }

        private let state = Lock(State())

        func install(_ continuation: CheckedContinuation<Value?, Never>) {
            state.withLock { $0.continuation = continuation }
        }

        /// Runs `action` once the race is decided (at once if it is).
        func onFinish(_ action: @escaping @Sendable () -> Void) {
            let runNow = state.withLock { state -> Bool in
                if state.finished { return true }
                state.onFinish = action
                return false
            }
            if runNow { action() }
        }

        /// Resumes with `value` if nothing did yet; returns whether this call decided the race.
        @discardableResult
        func finish(_ value: Value?) -> Bool {
            let taken = state.withLock { state -> (CheckedContinuation<Value?, Never>, (@Sendable () -> Void)?)? in
                guard !state.finished, let continuation = state.continuation else { return nil }
                state.finished = true
                state.continuation = nil
                defer { state.onFinish = nil }
                return (continuation, state.onFinish)
            }
            guard let (continuation, action) = taken else { return false }
            continuation.resume(returning: value)
            action?()
            return true
        }
    }

    /// The next request index, shared by the workers.
    final class Counter: Sendable {
        private let value = Atomic<Int>(0)

        /// The next index (0 first).
        func take() -> Int { value.add(1, ordering: .relaxed).oldValue }
    }

    /// Resident memory and heap in use taken at two points of the run.
    final class MemorySamples: Sendable {
        /// Resident and heap bytes at one point.
        struct Sample {
            var resident = 0
            var heap = 0

            static func now() -> Self {
                Self(resident: SoakProcessFigures.residentBytes(), heap: SoakProcessFigures.heapBytesInUse())
            }
        }

        private let samples = Lock<(start: Sample, middle: Sample)>((Sample(), Sample()))

        func record(start: Bool) {
            let sample = Sample.now()
            samples.withLock { if start { $0.start = sample } else { $0.middle = sample } }
        }

        /// The report's figures, with `end` taken now and resident memory read again after the
        /// allocator released its free memory.
        func finish() -> SoakReport.Memory {
            let (start, middle) = samples.withLock { $0 }
            let end = Sample.now()
            SoakProcessFigures.releaseFreeHeapMemory()
            return SoakReport.Memory(
                resident: .init(start: start.resident, middle: middle.resident, end: end.resident),
                heapInUse: .init(start: start.heap, middle: middle.heap, end: end.heap),
                residentAfterRelease: SoakProcessFigures.residentBytes())
        }
    }

    /// The counts of a run, shared by its workers.
    final class Tally: Sendable {
        private struct Counts {
            var report: SoakReport
        }

        private static let maxSamples = 20
        private let counts: Lock<Counts>

        init() {
            counts = Lock(Counts(report: SoakReport(transport: "", configuration: SoakConfiguration())))
        }

        var ended: Int { counts.withLock { $0.report.ended + $0.report.hung } }

        func note(isPost: Bool) {
            counts.withLock { if isPost { $0.report.posts += 1 } else { $0.report.gets += 1 } }
        }

        func completed(status: Int, verified: Bool) {
            counts.withLock {
                $0.report.completed += 1
                $0.report.completedByStatus[status, default: 0] += 1
                if verified { $0.report.verified += 1 }
            }
        }

        func failed(kind: String, message: String) {
            counts.withLock {
                $0.report.failedByKind[kind, default: 0] += 1
                if $0.report.firstErrors[kind] == nil { $0.report.firstErrors[kind] = message }
            }
        }

        func hung(id: String, isPost: Bool, streamed: Bool) {
            sample("hung: \(isPost ? "POST" : "GET") \(id) \(streamed ? "streamed" : "buffered")") { $0.hung += 1 }
        }

        func duplicated(id: String, arrivals: Int) {
            sample("duplicated: POST \(id) read \(arrivals) times by the server") { $0.duplicatedPosts += 1 }
        }

        func repeatedGet() { counts.withLock { $0.report.repeatedGets += 1 } }

        func corrupted(_ description: String) {
            sample("corrupted: \(description)") { $0.corrupted += 1 }
        }

        private func sample(_ text: String, _ update: (inout SoakReport) -> Void) {
            counts.withLock {
                update(&$0.report)
                if $0.report.samples.count < Self.maxSamples { $0.report.samples.append(text) }
            }
        }

        func report(transport: String, configuration: SoakConfiguration) -> SoakReport {
            counts.withLock {
                var report = $0.report
                report.transport = transport
                report.configuration = configuration
                return report
            }
        }
    }
}
