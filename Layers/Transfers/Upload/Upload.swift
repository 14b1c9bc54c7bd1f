public import HTTPTypes
public import SwitchyardCore

/// An upload of one body (a file, bytes, a stream) with states, pause, resume, cancel and progress
/// of the bytes the transport actually sent; resumable where the server supports "Resumable
/// Uploads for HTTP" ([draft-ietf-httpbis-resumable-upload-10](https://datatracker.ietf.org/doc/draft-ietf-httpbis-resumable-upload/10/),
/// interop version 8).
///
/// ```swift
/// let upload = try client.upload(try Request(method: .post, url: url), fromFile: "movie.mp4")
/// upload.start()
/// Task { @MainActor in
///     for await update in upload.progress { bar.fraction = update.fractionCompleted ?? 0 }
/// }
/// upload.pause()                       // state: .paused(completedBytes:) — the exchange stops
/// upload.resume()                      // asks the server for its offset and sends the rest
/// let result = try await upload.result()
/// ```
///
/// - **Resumption.** By default the upload first asks the target (`OPTIONS`) whether it announces
///   resumable uploads (`Accept-Patch: application/partial-upload`). If so it creates an upload
///   resource (the request with `Upload-Complete: ?0` and no content; the answer's `Location`),
///   then sends the body to it (`PATCH`, `Content-Type: application/partial-upload`,
///   `Upload-Offset`, `Upload-Complete: ?1`). After a pause, or an exchange that lost its
///   connection or got a `5xx` (up to ``Configuration/automaticResumes`` times by itself), it asks
///   for the offset (`HEAD`) and sends the rest from there: the server receives every byte once.
/// - **Single-use bodies** (a stream) resume too: the upload keeps the last
///   ``Configuration/keptStreamBytes`` it read (8 MiB by default) and continues from the server's
///   offset when it lies within them; otherwise resuming fails with
///   `SwitchyardError.Kind.invalidRequest` saying so.
/// - **Servers without resumption.** The upload is the plain request. Resuming sends it again from
///   zero; a single-use body cannot be sent twice, so resuming it fails with
///   `SwitchyardError.Kind.invalidRequest` saying so (upload from a file or replayable bytes instead).
/// - **Pause.** ``pause()`` stops the exchange (the transport closes it); the server keeps what it
///   processed. Works identically on every transport.
/// - **Progress.** ``progress`` counts the bytes the transport wrote to the connection (see
///   `SentBytesObserver`), not the bytes it read from the body, from the server's offset after a
///   resumption; throttled to about 20 updates a second, ending with a final update.
public final class Upload: Sendable {
    /// Whether the upload uses the resumable protocol, decided by the first run.
    private enum Mode {
        case undecided
        case plain
        case resumable(resource: String?)
    }

    /// The runs; every state change is decided by the lifecycle under this store's lock, then
    /// published (the broadcast's lock is taken inside it, never the other way round).
    private struct Store {
        var lifecycle = TransferLifecycle<UploadResult>()
        var task: Task<Void, Never>?
        var mode = Mode.undecided
        /// Whether the upload resource was just created (its offset is 0 without asking).
        var freshResource = false
        /// Whether the body was handed to an exchange (a single-use body cannot be again).
        var bodyHandedOut = false
        var resumedFrom: [Int64] = []
        var restarts = 0
        var lastResponseHead: HTTPResponse?
    }

    /// How the upload resumes.
    public let configuration: Configuration
    private let exchanges: UploadExchanges
    private let body: HTTPBody
    /// A single-use body as the exchanges of a resumable upload read it (kept bytes to resume from).
    private let keptStream: RetainedStream?
    private let store = Lock(Store())
    private let broadcast = StateBroadcast(UploadState.notStarted)
    private let reporter = ProgressReporter()

    /// Creates an upload; nothing happens until ``start()`` (or ``result()``).
    /// - Parameters:
    ///   - client: The client whose chain performs the exchanges.
    ///   - request: The request that receives the upload (method, URL, header fields); its body is
    ///     ignored.
    ///   - body: What to upload. A replayable body (a file, bytes) can restart from zero on a server
    ///     without resumption; a single-use stream cannot.
    ///   - configuration: How the upload resumes.
    public init(client: Client, request: Request, body: HTTPBody, configuration: Configuration = Configuration()) {
        var request = request
        request.body = nil
        self.exchanges = UploadExchanges(client: client, request: request)
        self.body = body
        self.configuration = configuration
        self.keptStream = body.replayability == .singleUse ? RetainedStream(body, capacity: configuration.keptStreamBytes) : nil
    }

    deinit {
        store.withLock { $0.task?.cancel() }
    }

    /// The current state.
    public var state: UploadState { broadcast.current }

    /// The current state, then every change until the final one; each access makes a new stream.
    public var states: AsyncStream<UploadState> { broadcast.subscribe() }

    /// Progress updates across pauses and resumes, ending with a final update when the upload
    /// ends. One stream per upload: iterate it from one place.
    public var progress: AsyncStream<TransferProgress> { reporter.updates }

    /// The upload resource the server created (an absolute URL), once known; `nil` for a plain upload.
    public var uploadResource: String? {
        store.withLock { store in
            if case .resumable(let resource) = store.mode { return resource }
            return nil
        }
    }

    /// The head of the latest final answer to an upload request, also for an upload that failed.
    public var lastResponseHead: HTTPResponse? { store.withLock { $0.lastResponseHead } }

    /// Starts the upload; does nothing once started.
    public func start() {
        store.withLock { store in _ = apply(store.lifecycle.start(), &store) }
    }

    /// Stops the running exchange; the state becomes ``TransferState/paused(completedBytes:)`` at
    /// once, with the bytes sent so far. Does nothing unless running.
    public func pause() {
        let task = store.withLock { store in apply(store.lifecycle.pause(completedBytes: reporter.completedBytes), &store) }
        task?.cancel()
    }

    /// Continues a paused upload: from the server's offset when it is resumable, from zero
    /// otherwise. Does nothing unless paused.
    public func resume() {
        store.withLock { store in _ = apply(store.lifecycle.resume(), &store) }
    }

    /// Cancels the upload and, when ``Configuration/deletesUploadOnCancel``, deletes its upload
    /// resource on the server. Does nothing once it has ended.
    public func cancel() {
        let (task, resource): (Task<Void, Never>?, String?) = store.withLock { store in
            let action = store.lifecycle.cancel()
            let task = apply(action, &store)
            guard case .finish = action, case .resumable(let resource) = store.mode else { return (task, nil) }
            return (task, resource)
        }
        task?.cancel()
        if let resource, configuration.deletesUploadOnCancel {
            let exchanges = exchanges
            Task {
                await task?.value
                await exchanges.delete(resource)
            }
        }
    }

    /// Starts the upload if needed and waits for it to end (through any pauses).
    /// - Returns: The completed upload.
    /// - Throws: The upload's error, or `SwitchyardError.Kind.cancelled`. Cancelling the
    ///   awaiting task cancels the upload.
    public func result() async throws(SwitchyardError) -> UploadResult {
        start()
        return try await broadcast.transferResult { [self] in cancel() }
    }

    // MARK: - Running

    /// Does what the lifecycle decided, under the store's lock.
    /// - Returns: The task to cancel once the lock is released.
    private func apply(_ action: TransferLifecycle<UploadResult>.Action, _ store: inout Store) -> Task<Void, Never>? {
        action.publish(to: broadcast, ending: reporter)
        switch action {
        case .startRun(let generation, _):
            launch(&store, generation: generation)
            return nil
        case .cancelRun, .finish(_, cancellingRun: true): return store.task
        case .publish, .finish, .ignore: return nil
        }
    }

    /// Starts the run `generation` after the previous one (if any) has stopped, so two never send at once.
    private func launch(_ store: inout Store, generation: Int) {
        let previous = store.task
        // The chain reports queueing and retry waits of this run's exchanges to the observer.
        let observer = ActivityObserver { [weak self] phase in self?.report(phase, generation: generation) }
        store.task = Task {
            await previous?.value
            let outcome = await ActivityReporting.$observer.withValue(observer) { await self.perform(generation: generation) }
            self.finish(outcome, generation: generation)
        }
    }

    private func perform(generation: Int) async -> Result<UploadResult, SwitchyardError> {
        var resumesLeft = configuration.automaticResumes
        do throws(SwitchyardError) {
            while true {
                switch store.withLock({ $0.mode }) {
                case .undecided:
                    let resumable: Bool
                    switch configuration.resumption {
                    case .discover: resumable = try await exchanges.discover()
                    case .assumeSupported: resumable = true
                    case .disabled: resumable = false
                    }
                    store.withLock { $0.mode = resumable ? .resumable(resource: nil) : .plain }
                case .plain:
                    return .success(try await sendWhole(generation: generation))
                case .resumable(nil):
                    let resource = try await exchanges.create(length: expectedBytes)
                    store.withLock { store in
                        store.mode = .resumable(resource: resource)
                        store.freshResource = true
                    }
                case .resumable(let resource?):
                    do throws(SwitchyardError) {
                        return .success(try await sendRest(to: resource, generation: generation))
                    } catch  where resumesLeft > 0 && Self.isInterruption(error) {
                        resumesLeft -= 1  // the next turn asks for the offset and continues
                    }
                }
            }
        } catch {
            return .failure(error)
        }
    }

    /// Appends the body from the server's offset to the upload resource (offset 0 right after creation).
    private func sendRest(to resource: String, generation: Int) async throws(SwitchyardError) -> UploadResult {
        let fresh = store.withLock { store in
            defer { store.freshResource = false }
            return store.freshResource
        }
        var offset: Int64 = 0
        if !fresh {
            let state = try await exchanges.offset(of: resource)
            store.withLock { $0.resumedFrom.append(state.offset) }
            if state.isComplete {
                // Completed by an earlier exchange whose answer was lost: the upload is done.
                return makeResult(head: state.response.head, body: [], resource: resource)
            }
            offset = state.offset
        }
        let rest = try await bodyForExchange(from: offset)
        reporter.begin(completed: offset, expected: expectedBytes)
        let response = try await exchanges.append(
            rest, at: offset, to: resource, observer: sentBytesObserver(base: offset, generation: generation))
        return try complete(with: response, resource: resource)
    }

    /// Sends the plain request with the whole body (again, after a pause, if the body is replayable).
    private func sendWhole(generation: Int) async throws(SwitchyardError) -> UploadResult {
        let whole = try await bodyForExchange(from: 0)
        reporter.begin(completed: 0, expected: expectedBytes)
        let response = try await exchanges.sendWhole(whole, observer: sentBytesObserver(base: 0, generation: generation))
        return try complete(with: response, resource: nil)
    }

    /// The body from `offset`, or the error that a single-use body cannot be sent again (from there).
    private func bodyForExchange(from offset: Int64) async throws(SwitchyardError) -> HTTPBody {
        let (handedOut, plain) = store.withLock { store in
            defer { store.bodyHandedOut = true }
            if case .plain = store.mode, store.bodyHandedOut { store.restarts += 1 }
            if case .plain = store.mode { return (store.bodyHandedOut, true) }
            return (store.bodyHandedOut, false)
        }
        if !plain, let keptStream { return try await keptStream.body(from: offset) }
        if body.replayability == .singleUse, handedOut || offset > 0 {
            let from = plain ? "from the start (the server does not support resumable uploads)" : "from byte \(offset)"
            throw .invalidRequest(
                "The upload's body is a single-use stream and was already sent in part, so it cannot be sent again \(from)."
                    + " Upload a file (client.upload(_:fromFile:)) or a replayable HTTPBody to pause and resume.")
        }
        return body.dropping(first: offset)
    }

    /// The result for the final answer `response`, or the error its status stands for.
    private func complete(with response: BufferedResponse, resource: String?) throws(SwitchyardError) -> UploadResult {
        store.withLock { $0.lastResponseHead = response.head }
        guard response.head.status.kind == .successful else {
            throw .httpStatus(
                "The server answered the upload with \(response.head.status.code) \(response.head.status.reasonPhrase).",
                response: response.head)
        }
        if let expectedBytes { reporter.record(completed: expectedBytes) }
        return makeResult(head: response.head, body: response.body, resource: resource)
    }

    private func makeResult(head: HTTPResponse, body bytes: [UInt8], resource: String?) -> UploadResult {
        store.withLock { store in
            UploadResult(
                head: head, body: bytes, byteCount: expectedBytes ?? reporter.completedBytes,
                uploadResource: resource, resumedFrom: store.resumedFrom, restarts: store.restarts)
        }
    }

    /// Whether `error` ended an exchange without a final answer (a lost connection, a timeout while
    /// idle) or with one that invites resuming (`5xx`, or `409` for an offset that moved on).
    private static func isInterruption(_ error: SwitchyardError) -> Bool {
        switch error.kind {
        case .connectionFailed, .transport: return true
        case .httpStatus:
            guard let status = error.response?.status else { return false }
            return status.kind == .serverError || status.code == 409
        default: return false
        }
    }

    /// Counts the bytes the transport sent in the run `generation`, from `base` (the offset the
    /// exchange continues from).
    private func sentBytesObserver(base: Int64, generation: Int) -> SentBytesObserver {
        SentBytesObserver { [weak self] sent in
            guard let self, store.withLock({ $0.lifecycle.isCurrent(generation) }) else { return }
            reporter.record(completed: base + sent)
        }
    }

    private var expectedBytes: Int64? {
        if case .known(let count) = body.length { return count }
        return nil
    }

    /// Publishes a phase the chain reported for the run `generation`, while it is the current run.
    private func report(_ phase: ExchangeActivity, generation: Int) {
        store.withLock { store in _ = apply(store.lifecycle.report(phase, generation: generation), &store) }
    }

    private func finish(_ outcome: Result<UploadResult, SwitchyardError>, generation: Int) {
        store.withLock { store in _ = apply(store.lifecycle.finish(outcome, generation: generation), &store) }
    }
}
