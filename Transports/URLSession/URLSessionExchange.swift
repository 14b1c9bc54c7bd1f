import Foundation
import HTTPTypes
import SwitchyardCore
import SwitchyardTransportKit
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Security)
// `tls_protocol_version_t`, the type of `negotiatedTLSProtocolVersion` on Apple platforms.
import Security
#endif

/// The state one request shares between the caller's task and URLSession's delegate queue: the
/// kit's ``ResponseStream``, fed by the delegate.
///
/// The delegate delivers the head, body chunks and the end; the caller awaits the head and pulls
/// chunks; either side — or the deadline timer — may end it. Ending early cancels the URLSession
/// task, which closes its connection.
///
/// Memory: at most ``ResponseBodyBuffer/memoryLimit`` bytes wait in memory. Where the task can be
/// paused (Apple platforms) it is suspended above that mark and resumed when the reader drains
/// below a quarter of it; where it cannot (Linux), the excess waits on disk.
typealias URLSessionExchange = ResponseStream<URLSessionExchangeDriver>

/// What a URLSession exchange does when its stream decides something.
struct URLSessionExchangeDriver: ResponseStreamDriver {
    typealias Head = Response
    typealias Queue = SpillingChunkQueue

    let request: Request
    let context: ExchangeContext
    let host: String
    /// The task, the end-of-exchange cleanups and the progress count.
    let task: URLSessionTaskHandle

    func pauseReceiving(_ stream: URLSessionExchange) {
        task.matchSuspension { stream.isReceivingPaused }
    }

    func resumeReceiving(_ stream: URLSessionExchange) {
        task.matchSuspension { stream.isReceivingPaused }
    }

    func ended(_ stream: URLSessionExchange, outcome: Result<Void, SwitchyardError>) {
        let elapsed = ContinuousClock.now - context.attemptStartedAt
        context.recordTimings { $0.total = elapsed }
        task.end(cancellingTask: (try? outcome.get()) == nil)
    }
}

extension ResponseStream where Driver == URLSessionExchangeDriver {
    /// An exchange for `request` keeping up to `memoryLimit` unread bytes in memory; `pausesTask`
    /// where suspending the task pauses it (Apple), otherwise the excess spills to disk.
    convenience init(request: Request, context: ExchangeContext, memoryLimit: Int, pausesTask: Bool) {
        let host = request.head.authority ?? "the server"
        let driver = URLSessionExchangeDriver(
            request: request, context: context, host: host,
            task: URLSessionTaskHandle())
        let queue = SpillingChunkQueue(
            buffer: ResponseBodyBuffer(memoryLimit: memoryLimit), mayUseDisk: !pausesTask,
            host: host)
        self.init(
            driver: driver,
            state: State(
                queue: queue, highWaterBytes: memoryLimit,
                overflow: pausesTask ? .keepAndPause : .keep,
                byteLimit: request.options.maxResponseBytes))
    }

    /// The request.
    var request: Request { driver.request }
    /// The exchange's context: deadline and timings.
    var context: ExchangeContext { driver.context }
    /// The server's name for messages.
    var host: String { driver.host }

    /// How many events URLSession delivered so far (head, body chunks, sent body bytes): the idle
    /// watchdog's signal.
    var progress: Int { driver.task.progress }

    /// Counts an event that shows the exchange is moving (e.g. request body bytes sent).
    func noteProgress() { driver.task.noteProgress() }

    // MARK: - Caller side

    /// Remembers the task so that ending the exchange can cancel it. Returns `false` (and cancels
    /// the task) if the exchange already ended.
    func attach(_ task: URLSessionTask) -> Bool { driver.task.attach(task) }

    /// Runs `cleanup` once the exchange ends (immediately if it already has).
    func onEnd(_ cleanup: @escaping @Sendable () -> Void) { driver.task.onEnd(cleanup) }

    /// Ends the exchange with `error` unless it already ended, and cancels the task.
    func fail(_ error: SwitchyardError) { cancel(error) }

    // MARK: - Delegate side

    /// The response head arrived (delegate queue).
    func didReceive(_ response: HTTPURLResponse) {
        // corelibs hands interim responses (e.g. `100 Continue`) to the delegate like final ones.
        noteProgress()
        guard (100...599).contains(response.statusCode) else {
            fail(TransportFailure.statusOutOfRange(host: host, code: response.statusCode))
            return
        }
        guard !(100...199).contains(response.statusCode) || response.statusCode == 101 else { return }
        let elapsed = ContinuousClock.now - context.attemptStartedAt
        context.recordTimings { $0.firstByte = elapsed }
        let received = ResponseHeadMapping.head(of: response)
        do {
            try ResponseHeadRules.validateSize(received, host: host)
            try ResponseHeadRules.validate(received, host: host)
            try ContentDecoders.checkLayers(of: received.headerFields)
        } catch {
            fail(error)
            return
        }
        let head = received.describingDecodedBody(codings: ResponseHeadMapping.decodedContentCodings)
        let declared = ResponseHeadMapping.declaredBodyBytes(of: head, method: request.head.method)
        if let limit = request.options.maxResponseBytes, let declared, declared > limit {
            fail(TransportFailure.declaredTooLarge(host: host, declared: declared, limit: limit))
            return
        }
        var body: HTTPBody?
        if ResponseHeadRules.hasBody(method: request.head.method, status: head.status) {
            body = HTTPBody(streamingFrom: StreamedResponseBody(self), length: declared.map { HTTPBody.Length.known($0) } ?? .unknown)
        }
        deliverHead(Response(head, body: body), declaredBytes: declared)
    }

    /// Body bytes arrived (delegate queue).
    func didReceive(_ data: Data, task: URLSessionTask) {
        noteProgress()
        _ = offer(data)
    }

    /// The task ended (delegate queue); `error` is URLSession's.
    func didComplete(error: (any Error)?) {
        if let error {
            finish(.failure(URLSessionErrorMapping.error(for: error, host: host, receivedHead: hasReceivedHead)))
        } else {
            finish(.success(()))  // the stream's rules: no head, or fewer bytes than declared, fail
        }
    }

    /// Platform phase timings, converted to durations since the exchange started, and (for a
    /// request that asks for them) the connection events the metrics tell. Apple platforms only:
    /// FoundationNetworking never calls the delegate with metrics.
    ///
    /// URLSession's `connectEndDate` includes the TLS handshake, so ``TransferTimings/connect`` is
    /// the handshake's start when there is one.
    func record(_ metrics: URLSessionTaskMetrics, taskStartedAt: ContinuousClock.Instant) {
        guard let transaction = metrics.transactionMetrics.last else { return }
        let base = metrics.taskInterval.start
        let offset = taskStartedAt - context.attemptStartedAt
        func since(_ date: Date?) -> Duration? {
            date.map { offset + .nanoseconds(Int64(($0.timeIntervalSince(base) * 1e9).rounded())) }
        }
        let reused = transaction.isReusedConnection
        // `remotePort` is an `Int?` on Apple platforms and a `String?` in FoundationNetworking.
        let connection = ConnectionInfo(
            remoteAddress: transaction.remoteAddress, remotePort: transaction.remotePort.flatMap { Int("\($0)") })
        context.recordTimings { timings in
            if !reused {
                timings.dns = since(transaction.domainLookupEndDate) ?? timings.dns
                timings.connect = since(transaction.secureConnectionStartDate ?? transaction.connectEndDate) ?? timings.connect
                timings.tls = since(transaction.secureConnectionEndDate) ?? timings.tls
            }
            timings.requestStart = since(transaction.requestStartDate) ?? timings.requestStart
            timings.newConnections = reused ? 0 : 1
            timings.remoteAddress = connection.remoteAddress ?? timings.remoteAddress
            timings.remotePort = connection.remotePort ?? timings.remotePort
        }
        guard request.options.publishesConnectionEvents else { return }
        guard !reused else {
            context.publish(.plugin(ConnectionReused(connection: connection)), request: request)
            return
        }
        context.publish(.plugin(ConnectionOpened(connection: connection)), request: request)
        if transaction.secureConnectionEndDate != nil {
            let version: String? =
                switch transaction.negotiatedTLSProtocolVersion?.rawValue {
                case 0x0303: "TLS 1.2"
                case 0x0304: "TLS 1.3"
                default: nil
                }
            let applicationProtocol: String? =
                switch transaction.networkProtocolName {
                case "h2": "h2"
                case "http/1.1": "http/1.1"
                default: nil
                }
            context.publish(
                .plugin(TLSNegotiated(connection: connection, protocolVersion: version, applicationProtocol: applicationProtocol)),
                request: request)
        }
    }
}

/// The URLSession task of one exchange, what must run when the exchange ends, and its progress.
///
/// Separate from the stream's lock: it is taken when the task is attached, when the exchange ends,
/// and when a suspension changes — not per chunk.
final class URLSessionTaskHandle: Sendable {
    private struct State {
        var task: URLSessionTask?
        var suspended = false
        var ended = false
        var cleanups: [@Sendable () -> Void] = []
    }

    /// Held inline: one allocation per exchange, not one more for a lock.
    private let state = Mutex(State())
    private let progressCount = Atomic<Int>(0)

    var progress: Int { progressCount.load(ordering: .relaxed) }

    func noteProgress() {
        progressCount.add(1, ordering: .relaxed)
    }

    /// Remembers `task`; cancels it and returns `false` if the exchange already ended.
    func attach(_ task: URLSessionTask) -> Bool {
        let ended = state.withLock { state in
            if !state.ended { state.task = task }
            return state.ended
        }
        if ended { task.cancel() }
        return !ended
    }

    /// Runs `cleanup` once the exchange ends (immediately if it already has).
    func onEnd(_ cleanup: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state in
            if state.ended { return true }
            state.cleanups.append(cleanup)
            return false
        }
        if runNow { cleanup() }
    }

    /// Suspends or resumes the task to match `paused`, read under this lock so that racing calls
    /// leave the task as the stream's latest decision says.
    func matchSuspension(_ paused: () -> Bool) {
        state.withLock { state in
            let wanted = paused()
            guard wanted != state.suspended, let task = state.task, !state.ended else { return }
            state.suspended = wanted
            if wanted { task.suspend() } else { task.resume() }
        }
    }

    /// The exchange ended: runs the cleanups, then cancels the task when it failed.
    func end(cancellingTask: Bool) {
        let (task, cleanups) = state.withLock { state in
            state.ended = true
            defer { state.cleanups = [] }
            return (state.task, state.cleanups)
        }
        // Cleanups first: they unblock a request-body read that would otherwise hold the session's
        // thread, which `cancel()` waits for on Linux.
        for cleanup in cleanups { cleanup() }
        guard cancellingTask, let task else { return }
        #if canImport(FoundationNetworking)
        // In a callback, `cancel()` would wait for the session's work queue, which is running the
        // callback (`InlineDelegateQueue`): cancel from elsewhere.
        if InlineDelegateQueue.isRunningCallback {
            DispatchQueue.global().async { task.cancel() }
            return
        }
        #endif
        task.cancel()
    }
}

/// The URLSession exchange's chunk queue: a ``ResponseBodyBuffer``, which spills to disk where the
/// task cannot be paused.
struct SpillingChunkQueue: ResponseChunkQueue {
    var buffer: ResponseBodyBuffer
    let mayUseDisk: Bool
    let host: String

    var isEmpty: Bool { buffer.isEmpty }
    var memoryBytes: Int { buffer.memoryBytes }

    static func byteCount(of incoming: Data) -> Int { incoming.count }
    static func chunk(from incoming: Data) -> ArraySlice<UInt8> { ArraySlice(incoming) }

    mutating func append(_ incoming: Data) throws(SwitchyardError) {
        do {
            try buffer.append(incoming, mayUseDisk: mayUseDisk)
        } catch {
            throw TransportFailure.bufferingFailed(host: host, error)
        }
    }

    mutating func popFirst() throws(SwitchyardError) -> ArraySlice<UInt8>? {
        do {
            return try buffer.take()
        } catch {
            throw TransportFailure.bufferingFailed(host: host, error)
        }
    }

    mutating func removeAll() { buffer.removeAll() }
}
