import Dispatch
public import Switchyard
import SwitchyardCore

/// Runs one task on an executor of its own and tells when that task waits: it has passed a marked
/// point (``ProbedTransport`` marks its entry into a transport) and none of its work is queued or
/// running any more, so it is suspended until something outside it resumes it.
///
/// A test that must act while a request waits in a transport's queue (cancel it there, say) waits
/// for this event instead of sleeping: a sleep only guesses, and on a busy machine the request has
/// not reached the queue yet. Which wait the suspension is depends on the transport's code after
/// the mark; a test using the probe names it (e.g. curl's `send` suspends only once the transfer is
/// handed to the event loop).
///
/// ```swift
/// let probe = SuspensionProbe()
/// let client = Client(transport: ProbedTransport(CurlTransport(), probe: probe))
/// let queued = probe.task { try await client.send(try Request(url: url)) }
/// #expect(await probe.suspendedAfterMark())
/// queued.cancel()
/// ```
public final class SuspensionProbe: TaskExecutor, Sendable {
    private struct State {
        /// Jobs enqueued and not yet finished running.
        var pending = 0
        /// Whether a job is running now (the queue is serial).
        var running = false
        /// Whether the probed task passed ``mark()``, and whether one of its jobs was running then.
        var marked = false
        var markedOffProbe = false
        /// Whether the probed task's operation returned or threw.
        var ended = false
    }

    @TaskLocal private static var probed: SuspensionProbe?

    private let state = Lock(State())
    private let queue = DispatchQueue(label: "switchyard.tests.suspension-probe")

    /// Creates a probe; it runs nothing until ``task(_:)``.
    public init() {}

    /// Runs `job` on the probe's serial queue, counting it as pending until it suspends or ends.
    /// - Parameter job: A job of the probed task (or of its child tasks).
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        state.withLock { $0.pending += 1 }
        queue.async {
            self.state.withLock { $0.running = true }
            job.runSynchronously(on: self.asUnownedTaskExecutor())
            self.state.withLock { state in
                state.running = false
                state.pending -= 1
            }
        }
    }

    /// Starts `operation` as a task whose jobs all run on this probe.
    /// - Parameter operation: The work to watch, e.g. sending a request through a ``ProbedTransport``.
    /// - Returns: The task; cancel it, or await its result.
    public func task<Success: Sendable>(
        _ operation: sending @escaping () async throws -> Success
    ) -> Task<Success, any Error> {
        Task(executorPreference: self) {
            defer { self.state.withLock { $0.ended = true } }
            return try await Self.$probed.withValue(self) { try await operation() }
        }
    }

    /// Records that the probed task reached this point; does nothing when called from another task.
    public func mark() {
        guard Self.probed === self else { return }
        state.withLock { state in
            state.marked = true
            if !state.running { state.markedOffProbe = true }
        }
    }

    /// Waits until the probed task has passed ``mark()`` and waits: no job of it is queued or
    /// running, and it has not ended.
    /// - Parameter timeout: Guards against a hang only (long, for a busy machine).
    /// - Returns: Whether the task was seen waiting after the mark; `false` as well when the mark was
    ///   passed off the probe's executor, where its jobs are not counted, or when the waiting task is
    ///   cancelled.
    public func suspendedAfterMark(timeout: Duration = .seconds(60)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (marked, waiting, gone) = state.withLock { state in
                (state.marked, !state.markedOffProbe && !state.ended && state.pending == 0, state.markedOffProbe || state.ended)
            }
            if marked && waiting { return true }
            if (marked && gone) || ContinuousClock.now >= deadline { return false }
            do { try await Task.sleep(for: .milliseconds(1)) } catch { return false }  // cancelled: stop, never spin
        }
    }
}

/// A transport that marks its ``SuspensionProbe`` whenever the probed task sends through it, then
/// hands the request to the transport it wraps.
public struct ProbedTransport: Transport {
    /// The transport doing the work.
    public let inner: any Transport
    /// The probe marked on each send of its task.
    public let probe: SuspensionProbe

    /// Wraps `inner`.
    /// - Parameters:
    ///   - inner: The transport doing the work.
    ///   - probe: The probe to mark.
    public init(_ inner: any Transport, probe: SuspensionProbe) {
        self.inner = inner
        self.probe = probe
    }

    /// Marks the probe (for its own task only) and sends `request` through ``inner``.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The exchange context.
    /// - Returns: The inner transport's response.
    /// - Throws: What the inner transport throws.
    public nonisolated(nonsending) func send(_ request: Request, context: ExchangeContext) async throws -> Response {
        probe.mark()
        return try await inner.send(request, context: context)
    }

    /// Shuts the inner transport down.
    /// - Throws: What the inner transport's shutdown throws.
    public func shutdown() async throws {
        try await inner.shutdown()
    }

    /// The inner transport's executor, so tasks that prefer it still run where its I/O does.
    public var taskExecutor: (any TaskExecutor)? { inner.taskExecutor }
}
