#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import HTTPTypes
import Switchyard
import Synchronization

/// The state one request shares between the caller's task and URLSession's delegate queue.
///
/// The delegate delivers the head, body chunks and the end; the caller awaits the head and pulls
/// chunks; either side — or the deadline timer — may end it. The first outcome recorded wins and
/// nothing is delivered after it; ending early cancels the URLSession task, which closes its
/// connection.
///
/// Memory: at most ``ResponseBodyBuffer/memoryLimit`` bytes wait in memory. Where the task can be
/// paused (``pausesTask``, Apple platforms) it is suspended above that mark and resumed when the
/// reader drains below a quarter of it; where it cannot (Linux), the excess waits on disk.
final class URLSessionExchange: Sendable {
    let request: Request
    let context: ExchangeContext
    let host: String
    private let pausesTask: Bool
    private let lowWaterBytes: Int

    private struct State {
        var task: URLSessionTask?
        var headWaiter: CheckedContinuation<Response, any Error>?
        var headArrived = false
        /// The head, when it arrived before the caller asked for it.
        var readyHead: Response?
        var buffer: ResponseBodyBuffer
        var reader: CheckedContinuation<ArraySlice<UInt8>?, any Error>?
        var receivedBytes: Int64 = 0
        /// The body size the head declared, when the bytes we receive are the bytes it counted.
        var declaredBytes: Int64?
        var isSuspended = false
        var cleanups: [@Sendable () -> Void] = []
        var outcome: Result<Void, SwitchyardError>?
    }

    private let state: Mutex<State>
    private let progressCount = Atomic<Int>(0)

    /// How many events URLSession delivered so far (head, body chunks, sent body bytes): the idle
    /// watchdog's signal.
    var progress: Int { progressCount.load(ordering: .relaxed) }

    /// Counts an event that shows the exchange is moving (e.g. request body bytes sent).
    func noteProgress() {
        progressCount.add(1, ordering: .relaxed)
    }

    init(request: Request, context: ExchangeContext, memoryLimit: Int, pausesTask: Bool) {
        self.request = request
        self.context = context
        self.host = request.head.authority ?? "the server"
        self.pausesTask = pausesTask
        self.lowWaterBytes = memoryLimit / 4
        self.state = Mutex(State(buffer: ResponseBodyBuffer(memoryLimit: memoryLimit)))
    }

    // MARK: - Caller side

    /// Remembers the task so that ending the exchange can cancel it. Returns `false` (and cancels
    /// the task) if the exchange already ended.
    func attach(_ task: URLSessionTask) -> Bool {
        let ended = state.withLock { state in
            state.task = task
            return state.outcome != nil
        }
        if ended { task.cancel() }
        return !ended
    }

    /// Runs `cleanup` once the exchange ends (immediately if it already has).
    func onEnd(_ cleanup: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state in
            if state.outcome != nil { return true }
            state.cleanups.append(cleanup)
            return false
        }
        if runNow { cleanup() }
    }

    /// Waits for the response head.
    func head() async throws -> Response {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Response, any Error>) in
                let ready: Result<Response, SwitchyardError>? = state.withLock { state in
                    if let head = state.readyHead {
                        state.readyHead = nil
                        return .success(head)
                    }
                    if case .failure(let error)? = state.outcome { return .failure(error) }
                    state.headWaiter = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready.mapError { $0 as any Error }) }
            }
        } onCancel: {
            fail(.cancelled)
        }
    }

    /// Returns the next body chunk, `nil` at the end, or throws the exchange's failure.
    func nextChunk() async throws -> ArraySlice<UInt8>? {
        if let ready = try take() { return try ready.get() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                do {
                    let ready = try state.withLock { state in
                        let ready = try take(&state)
                        if ready == nil { state.reader = continuation }
                        return ready
                    }
                    if let ready { continuation.resume(with: ready.mapError { $0 as any Error }) }
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            fail(.cancelled)
        }
    }

    private func take() throws -> Result<ArraySlice<UInt8>?, SwitchyardError>? {
        try state.withLock { try take(&$0) }
    }

    /// The next chunk or the outcome; `nil` when the reader has to wait. Resumes a suspended task
    /// once the buffer has drained enough.
    private func take(_ state: inout State) throws -> Result<ArraySlice<UInt8>?, SwitchyardError>? {
        do {
            if let chunk = try state.buffer.take() {
                if state.isSuspended, state.buffer.memoryBytes <= lowWaterBytes, let task = state.task {
                    state.isSuspended = false
                    task.resume()
                }
                return .success(chunk)
            }
        } catch {
            let failure = SwitchyardError.transportFailed("Buffering the response from \(host) failed: \(error).",
                                                          underlyingError: error)
            state.outcome = state.outcome ?? .failure(failure)
            return .failure(failure)
        }
        switch state.outcome {
        case .success?: return .success(nil)
        case .failure(let error)?: return .failure(error)
        case nil: return nil
        }
    }

    /// `true` once the exchange has an outcome.
    var isFinished: Bool { state.withLock { $0.outcome != nil } }

    /// Ends the exchange with `error` unless it already ended, and cancels the task.
    func fail(_ error: SwitchyardError) {
        end(.failure(error))
    }

    // MARK: - Delegate side

    /// The response head arrived (delegate queue).
    func didReceive(_ response: HTTPURLResponse) {
        // corelibs hands interim responses (e.g. `100 Continue`) to the delegate like final ones.
        progressCount.add(1, ordering: .relaxed)
        guard (100...599).contains(response.statusCode) else {
            fail(.protocolViolation("\(host) answered with status \(response.statusCode), outside 100–599; the response"
                + " was refused."))
            return
        }
        guard !(100...199).contains(response.statusCode) || response.statusCode == 101 else { return }
        let elapsed = ContinuousClock.now - context.attemptStartedAt
        context.recordTimings { $0.firstByte = elapsed }
        let received = ResponseHeadMapping.head(of: response)
        do {
            try ResponseHeadRules.validateSize(received, host: host)
            try ResponseHeadRules.validate(received, host: host)
        } catch {
            fail(error)
            return
        }
        let head = received.describingDecodedBody(codings: ResponseHeadMapping.decodedContentCodings)
        let declared = ResponseHeadMapping.declaredBodyBytes(of: head, method: request.head.method)
        if let limit = request.options.maxResponseBytes, let declared, declared > limit {
            fail(SwitchyardError(.responseTooLarge, "The response from \(host) declares \(declared) bytes, more than"
                + " the limit of \(limit); nothing was read. Raise maxResponseBytes or stream the body."))
            return
        }
        let hasBody = request.head.method != .head && head.status.code != 204 && head.status.code != 304
        let length: HTTPBody.Length = declared.map { .known($0) } ?? .unknown
        let body = hasBody ? HTTPBody(URLSessionResponseBody(exchange: self), length: length) : nil
        let response = Response(head, body: body)
        let waiter = state.withLock { state in
            guard state.outcome == nil, !state.headArrived else { return CheckedContinuation<Response, any Error>?.none }
            state.headArrived = true
            state.declaredBytes = declared
            if state.headWaiter == nil { state.readyHead = response }
            defer { state.headWaiter = nil }
            return state.headWaiter
        }
        waiter?.resume(returning: response)
    }

    /// Body bytes arrived (delegate queue).
    func didReceive(_ data: Data, task: URLSessionTask) {
        progressCount.add(1, ordering: .relaxed)
        var failure: SwitchyardError?
        let reader: CheckedContinuation<ArraySlice<UInt8>?, any Error>? = state.withLock { state in
            guard state.outcome == nil else { return nil }
            state.receivedBytes += Int64(data.count)
            if let limit = request.options.maxResponseBytes, state.receivedBytes > limit {
                failure = .responseTooLarge(limit: limit)
                return nil
            }
            if let reader = state.reader, state.buffer.isEmpty {
                state.reader = nil
                return reader
            }
            do {
                try state.buffer.append(data, mayUseDisk: !pausesTask)
            } catch {
                failure = .transportFailed("Buffering the response from \(host) failed: \(error).",
                                           underlyingError: error)
                return nil
            }
            if pausesTask, !state.isSuspended, state.buffer.memoryBytes >= state.buffer.memoryLimit {
                state.isSuspended = true
                task.suspend()
            }
            return nil
        }
        if let failure { fail(failure) }
        reader?.resume(returning: ArraySlice(data))
    }

    /// The task ended (delegate queue); `error` is URLSession's.
    func didComplete(error: (any Error)?) {
        let (headArrived, received, declared) = state.withLock { ($0.headArrived, $0.receivedBytes, $0.declaredBytes) }
        if let error {
            end(.failure(URLSessionErrorMapping.error(for: error, host: host, receivedHead: headArrived)))
        } else if !headArrived {
            end(.failure(.protocolViolation("\(host) ended the exchange without a response head.")))
        } else if let declared, received < declared {
            end(.failure(.protocolViolation("\(host) declared \(declared) body bytes but sent \(received) before"
                + " the exchange ended; the body is truncated and was not delivered as complete.")))
        } else {
            end(.success(()))
        }
    }

    /// Platform phase timings, converted to durations since the exchange started.
    func record(_ metrics: URLSessionTaskMetrics, taskStartedAt: ContinuousClock.Instant) {
        guard let transaction = metrics.transactionMetrics.last else { return }
        let base = metrics.taskInterval.start
        let offset = taskStartedAt - context.attemptStartedAt
        func since(_ date: Date?) -> Duration? {
            date.map { offset + .nanoseconds(Int64(($0.timeIntervalSince(base) * 1e9).rounded())) }
        }
        context.recordTimings { timings in
            if !transaction.isReusedConnection {
                timings.dns = since(transaction.domainLookupEndDate) ?? timings.dns
                timings.connect = since(transaction.connectEndDate) ?? timings.connect
                timings.tls = since(transaction.secureConnectionEndDate) ?? timings.tls
            }
        }
    }

    // MARK: - Ending

    private func end(_ result: Result<Void, SwitchyardError>) {
        // A head nobody took yet is handed out of the lock (`_`) and released there: its body's
        // owner checks this exchange's state when it goes away, which would lock again.
        let (task, headWaiter, reader, cleanups, recorded, _) = state.withLock { state in
            guard state.outcome == nil else {
                return (URLSessionTask?.none, CheckedContinuation<Response, any Error>?.none,
                        CheckedContinuation<ArraySlice<UInt8>?, any Error>?.none, [@Sendable () -> Void](),
                        Result<Void, SwitchyardError>?.none, Response?.none)
            }
            state.outcome = result
            var unclaimedHead: Response?
            if case .failure = result {
                state.buffer.removeAll()
                unclaimedHead = state.readyHead.take()
            }
            defer {
                state.headWaiter = nil
                state.reader = nil
                state.cleanups = []
            }
            return (state.task, state.headWaiter, state.reader, state.cleanups, result, unclaimedHead)
        }
        guard let recorded else { return }
        let elapsed = ContinuousClock.now - context.attemptStartedAt
        context.recordTimings { $0.total = elapsed }
        // Cleanups first: they unblock a request-body read that would otherwise hold the session's
        // thread, which `cancel()` waits for on Linux.
        for cleanup in cleanups { cleanup() }
        switch recorded {
        case .success:
            reader?.resume(returning: nil)
        case .failure(let error):
            headWaiter?.resume(throwing: error)
            reader?.resume(throwing: error)
            task?.cancel()
        }
    }
}
