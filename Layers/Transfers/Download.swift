public import HTTPTypes
public import SwitchyardCore

/// A download of one resource to a file: streamed to `FILE.part` in constant memory, verified,
/// then renamed to `FILE` atomically; resumable, pausable, with progress.
///
/// ```swift
/// let download = client.download(try Request(method: .get, url: url), to: "/tmp/big.iso")
/// download.start()
/// Task { @MainActor in
///     for await update in download.progress { bar.fraction = update.fractionCompleted ?? 0 }
/// }
/// download.pause()                     // state: .paused(completedBytes:) — the exchange stops
/// download.resume()                    // continues with Range: bytes=N- and If-Range
/// let result = try await download.result()
/// ```
///
/// - **Resume.** A partial file left by an earlier download (interrupted, failed, paused, or in
///   an earlier run of the program) is continued with `Range`/`If-Range`, the validator being
///   the `ETag` (or `Last-Modified`) stored next to it in `FILE.part.validator`. When the server
///   ignores ranges or the resource changed, it answers `200` and the file is fetched whole.
///   Without a stored validator the whole file is fetched again.
/// - **Verification.** The file must have the announced length (and the configuration's
///   checksum, if any) before it replaces `FILE`; until then `FILE` is untouched.
/// - **Pause.** ``pause()`` stops the exchange (the transport closes it) and keeps the partial
///   file; ``resume()`` starts a ranged exchange. Works identically on every transport.
/// - **Progress.** ``progress`` reports completed bytes (including those already on disk),
///   expected bytes and the rate, throttled to about 20 updates a second, ending with a final update.
public final class Download: Sendable {
    /// The runs; every state change is decided by the lifecycle under this store's lock, then
    /// published (the broadcast's lock is taken inside it, never the other way round).
    private struct Store {
        var lifecycle = TransferLifecycle<DownloadResult>()
        var task: Task<Void, Never>?
        var lastResponse: (head: HTTPResponse, context: ExchangeContext)?
    }

    /// The final path of the file.
    public let destination: String
    /// How the download resumes and verifies.
    public let configuration: Configuration
    private let client: Client
    private let request: Request
    private let store = Lock(Store())
    private let broadcast = StateBroadcast(DownloadState.notStarted)
    private let reporter = ProgressReporter()

    /// Creates a download; nothing happens until ``start()`` (or ``result()``).
    /// - Parameters:
    ///   - client: The client whose chain performs the exchanges.
    ///   - request: The request (usually a `GET`); `Range`, `If-Range` and `Accept-Encoding: identity` are added.
    ///   - destination: Where the complete file goes; the partial file is `destination + ".part"`.
    ///   - configuration: Resume and verification settings.
    public init(client: Client, request: Request, destination: String, configuration: Configuration = Configuration()) {
        self.client = client
        self.request = request
        self.destination = destination
        self.configuration = configuration
    }

    deinit {
        store.withLock { $0.task?.cancel() }
    }

    /// Where the bytes are kept until the file is complete.
    public var partialPath: String { PartialFile(destination: destination).partPath }

    /// The current state.
    public var state: DownloadState { broadcast.current }

    /// The head of the latest response, also for a download that failed (e.g. interrupted).
    public var lastResponseHead: HTTPResponse? { store.withLock { $0.lastResponse?.head } }

    /// The context (identity, timings) of the latest exchange.
    public var lastExchangeContext: ExchangeContext? { store.withLock { $0.lastResponse?.context } }

    /// The current state, then every change until the final one; each access makes a new stream.
    public var states: AsyncStream<DownloadState> { broadcast.subscribe() }

    /// Progress updates across pauses and resumes, ending with a final update when the download
    /// ends. One stream per download: iterate it from one place (it is `Sendable`, so a
    /// `@MainActor` task may do so).
    public var progress: AsyncStream<TransferProgress> { reporter.updates }

    /// Starts the download; does nothing once started.
    public func start() {
        store.withLock { store in _ = apply(store.lifecycle.start(), &store, resuming: configuration.resumesPartialFile) }
    }

    /// Stops the running exchange and keeps the partial file; the state becomes
    /// ``TransferState/paused(completedBytes:)`` at once. Does nothing unless running.
    public func pause() {
        let task = store.withLock { store in apply(store.lifecycle.pause(completedBytes: reporter.completedBytes), &store) }
        task?.cancel()
    }

    /// Continues a paused download from its partial file. Does nothing unless paused.
    public func resume() {
        store.withLock { store in _ = apply(store.lifecycle.resume(), &store, resuming: true) }
    }

    /// Cancels the download, keeping the partial file. Does nothing once it has ended.
    public func cancel() {
        let task = store.withLock { store in apply(store.lifecycle.cancel(), &store) }
        task?.cancel()
    }

    /// Starts the download if needed and waits for it to end (through any pauses).
    /// - Returns: The completed download.
    /// - Throws: The download's error, or `SwitchyardError.Kind.cancelled`. Cancelling the
    ///   awaiting task cancels the download.
    public func result() async throws(SwitchyardError) -> DownloadResult {
        start()
        return try await broadcast.transferResult { [self] in cancel() }
    }

    // MARK: - Running

    /// Does what the lifecycle decided, under the store's lock.
    /// - Returns: The task to cancel once the lock is released.
    private func apply(
        _ action: TransferLifecycle<DownloadResult>.Action, _ store: inout Store, resuming: Bool = true
    ) -> Task<Void, Never>? {
        action.publish(to: broadcast, ending: reporter)
        switch action {
        case .startRun(let generation, _):
            launch(&store, generation: generation, resuming: resuming)
            return nil
        case .cancelRun, .finish(_, cancellingRun: true): return store.task
        case .publish, .finish, .ignore: return nil
        }
    }

    /// Starts the run `generation` after the previous one (if any) has stopped, so two never write the file.
    private func launch(_ store: inout Store, generation: Int, resuming: Bool) {
        let previous = store.task
        // The chain reports queueing and retry waits of this run's exchanges to the observer.
        let observer = ActivityObserver { [weak self] phase in self?.report(phase, generation: generation) }
        store.task = Task {
            await previous?.value
            let outcome = await ActivityReporting.$observer.withValue(observer) { await self.perform(resuming: resuming) }
            self.finish(outcome, generation: generation)
        }
    }

    private func perform(resuming: Bool) async -> Result<DownloadResult, SwitchyardError> {
        let file = PartialFile(destination: destination)
        let exchange = DownloadExchange(
            client: client, request: request, file: file, reporter: reporter,
            checksum: configuration.checksum
        ) { head, context in
            self.store.withLock { $0.lastResponse = (head, context) }
        }
        var resuming = resuming
        do throws(SwitchyardError) {
            while true {
                let offset = resuming ? file.existingBytes : 0
                let validator = offset > 0 ? file.storedValidator() : nil
                switch try await exchange.run(resumingFrom: offset, validator: validator) {
                case .completed(let result): return .success(result)
                case .restartWhole where resuming: resuming = false
                case .restartWhole: throw .protocolViolation("The server answered a whole-resource request with a range.")
                }
            }
        } catch {
            return .failure(error)
        }
    }

    /// Publishes a phase the chain reported for the run `generation`, while it is the current run.
    private func report(_ phase: ExchangeActivity, generation: Int) {
        store.withLock { store in _ = apply(store.lifecycle.report(phase, generation: generation), &store) }
    }

    private func finish(_ outcome: Result<DownloadResult, SwitchyardError>, generation: Int) {
        store.withLock { store in _ = apply(store.lifecycle.finish(outcome, generation: generation), &store) }
    }
}
