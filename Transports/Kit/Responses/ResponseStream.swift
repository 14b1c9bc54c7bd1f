public import SwitchyardCore

/// One response in flight, shared by the caller's task and the transport's I/O: the transport kit's
/// main type. It keeps a ``ResponseStreamState`` under a mutex, parks the head waiter and the reader
/// in continuations, and calls its ``ResponseStreamDriver`` for what the I/O must do.
///
/// Cost: one lock acquisition per operation, no allocation per chunk beyond the chunk itself, and
/// every continuation is taken out of the state under the lock and resumed outside it, exactly once.
/// The continuations are unsafe ones (a checked one costs an allocation per wait); taking each out
/// under the lock before resuming it is what makes "exactly once" hold.
///
/// ### Write a transport with the kit
///
/// The I/O feeds the stream; the caller awaits the head and returns a body that cancels the
/// exchange when dropped:
///
/// ```swift
/// struct Feed: ResponseStreamDriver {
///     typealias Head = HTTPResponse
///     typealias Queue = ResponseChunks
///     var host: String { "memory" }
/// }
///
/// func send(_ request: Request, context: ExchangeContext) async throws -> Response {
///     let stream = ResponseStream(driver: Feed(), state: .init(queue: ResponseChunks(),
///         highWaterBytes: 64 * 1024, overflow: .keepAndPause))
///     startIO(feeding: stream)          // calls deliverHead, offer, finish from any thread
///     let head = try await stream.head()
///     let body = ResponseHeadRules.hasBody(method: request.head.method, status: head.status)
///         ? HTTPBody(streamingFrom: StreamedResponseBody(stream), length: .unknown) : nil
///     return Response(head, body: body)
/// }
/// ```
///
/// `Tests/SwitchyardTransportKitTests/WriteATransportTests.swift` compiles and runs a complete one.
public final class ResponseStream<Driver: ResponseStreamDriver>: Sendable {
    /// The state machine this stream drives.
    public typealias State = ResponseStreamState<Driver.Head, Driver.Queue>

    /// What the I/O should do with a chunk it offered.
    public enum Offer: Sendable {
        /// The chunk was taken.
        case accepted
        /// The chunk was *not* taken: pause receiving and offer it again after ``ResponseStreamDriver/resumeReceiving(_:)``.
        case pause
        /// The chunk was not taken and the exchange has ended: stop receiving.
        case abort
    }

    /// What the lock guards. `@unchecked Sendable` although the driver's queue need not be
    /// `Sendable`: it enters as the `sending` state of ``init(driver:state:)``, lives only inside
    /// ``state``'s lock, and no `withLock` body hands it out (they return `Sendable` parts: the
    /// waiters, a ``Read``, an ``Offer``) — the guarantee `Mutex` gives through `sending`.
    @usableFromInline struct Locked: @unchecked Sendable {
        @usableFromInline var machine: State
        @usableFromInline var headWaiter: UnsafeContinuation<Driver.Head, any Error>?
        @usableFromInline var reader: UnsafeContinuation<ArraySlice<UInt8>?, any Error>?
        @inlinable init(machine: State) { self.machine = machine }
    }

    /// The waiters an ending resumes, taken out of the state under the lock.
    @usableFromInline struct Waiters: Sendable {
        @usableFromInline var ending: State.Ending
        @usableFromInline var headWaiter: UnsafeContinuation<Driver.Head, any Error>?
        @usableFromInline var reader: UnsafeContinuation<ArraySlice<UInt8>?, any Error>?
        @inlinable init(
            ending: State.Ending, headWaiter: UnsafeContinuation<Driver.Head, any Error>?,
            reader: UnsafeContinuation<ArraySlice<UInt8>?, any Error>?
        ) {
            self.ending = ending
            self.headWaiter = headWaiter
            self.reader = reader
        }
    }

    /// The transport's I/O hooks, and whatever per-exchange values it keeps.
    public let driver: Driver
    @usableFromInline let state: Lock<Locked>

    /// Creates a stream waiting for its head.
    /// - Parameters:
    ///   - driver: The transport's I/O hooks.
    ///   - state: The state machine, configured with its queue, water marks and limits.
    ///
    /// Inlinable, so a transport's stream is made by code specialised for its driver, without a
    /// run-time lookup of the generic types' metadata per exchange.
    @inlinable public init(driver: Driver, state: sending State) {
        self.driver = driver
        self.state = Lock(Locked(machine: state))
    }

    /// `true` once the exchange has its outcome.
    @inlinable public var isFinished: Bool { state.withLock { $0.machine.isFinished } }

    /// Whether receiving is paused because the reader is behind (the state machine's latest decision).
    @inlinable public var isReceivingPaused: Bool { state.withLock { $0.machine.isReceivingPaused } }

    /// Whether the response head arrived.
    @inlinable public var hasReceivedHead: Bool { state.withLock { $0.machine.hasReceivedHead } }

    // MARK: - Caller side

    /// The whole body at once, if the exchange already ended cleanly with at most `limit` bytes, all
    /// still queued (``ResponseStreamState/takeWholeBody(upTo:)``): a transport then returns it as a
    /// buffered body, which costs no stream, iterator or lock per chunk. `nil` otherwise.
    /// - Parameter limit: The most bytes copied into one array.
    /// - Returns: The body, or `nil`.
    @inlinable public func takeWholeBody(upTo limit: Int) -> ArraySlice<UInt8>? where Driver.Queue == ResponseChunks {
        state.withLock { $0.machine.takeWholeBody(upTo: limit) }
    }

    /// Waits for the response head; calls ``ResponseStreamDriver/startReceiving(_:)`` once parked.
    /// - Throws: The exchange's failure; ``SwitchyardError/cancelled`` when the task is cancelled.
    @inlinable public func head() async throws -> Driver.Head {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Driver.Head, any Error>) in
                let request = state.withLock { locked in
                    let request = locked.machine.waitForHead()
                    if case .park = request { locked.headWaiter = continuation }
                    return request
                }
                switch request {
                case .park: driver.startReceiving(self)
                case .head(let head): continuation.resume(returning: head)
                case .fail(let error): continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            cancel(.cancelled)
        }
    }

    /// Returns the next body chunk, `nil` at the end, or throws the exchange's failure.
    @inlinable public func nextChunk() async throws -> ArraySlice<UInt8>? {
        // Fast path: something is ready, so no continuation and no cancellation handler. Both paths
        // are functions of their own, never inlined: inlined, they made this frame over 1 KB per read.
        if let ready = try readyChunk() { return ready }
        return try await parkForChunk()
    }

    /// The next chunk or the end if one is ready (`.some`), without parking; `nil` if the reader must wait.
    /// Inlinable so that a transport's module specializes it (unspecialized, it looked up generic
    /// metadata on every read), never inlined.
    @inlinable @inline(never)
    func readyChunk() throws(SwitchyardError) -> ArraySlice<UInt8>?? {
        try settle(state.withLock { read(&$0, parking: false) })
    }

    /// Parks the reader until a chunk, the end or a failure arrives (inlinable and never inlined, as
    /// ``readyChunk()``).
    @inlinable @inline(never)
    nonisolated(nonsending) func parkForChunk() async throws -> ArraySlice<UInt8>? {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<ArraySlice<UInt8>?, any Error>) in
                let request = state.withLock { locked in
                    let request = read(&locked, parking: true)
                    if case .park = request.request { locked.reader = continuation }
                    return request
                }
                do {
                    if let ready = try settle(request) { continuation.resume(returning: ready) }
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            cancel(.cancelled)
        }
    }

    /// A reader's request, with the waiters to resume when the pull itself ended the exchange.
    @usableFromInline struct Read: Sendable {
        @usableFromInline var request: State.ChunkRequest
        @usableFromInline var waiters: Waiters?
        @inlinable init(request: State.ChunkRequest, waiters: Waiters? = nil) {
            self.request = request
            self.waiters = waiters
        }
    }

    @inlinable func read(_ locked: inout Locked, parking: Bool) -> Read {
        let request = locked.machine.readChunk(parking: parking)
        guard case .fail(_, let ending?) = request else { return Read(request: request) }
        return Read(request: request, waiters: take(ending, &locked))
    }

    /// Turns a reader's request into its answer: `.none` to park, `.some(nil)` at the end.
    @inlinable func settle(_ read: Read) throws(SwitchyardError) -> ArraySlice<UInt8>?? {
        switch read.request {
        case .park:
            return .none
        case .chunk(let chunk, let resumeReceiving):
            if resumeReceiving { driver.resumeReceiving(self) }
            return .some(chunk)
        case .end:
            return .some(nil)
        case .fail(let error, _):
            if let waiters = read.waiters { complete(waiters, stopReceiving: true) }
            throw error
        }
    }

    /// Ends the exchange with `error` unless it already ended, and stops the I/O
    /// (``ResponseStreamDriver/stopReceiving(_:)``).
    @inlinable public func cancel(_ error: SwitchyardError) {
        guard let waiters = state.withLock({ locked in locked.machine.cancel(error).map { take($0, &locked) } }) else {
            return
        }
        complete(waiters, stopReceiving: true)
    }

    // MARK: - I/O side

    /// Hands the response head over (any thread).
    /// - Parameters:
    ///   - head: The head.
    ///   - declaredBytes: The body length to hold a clean end to (see ``ResponseStreamState/headArrived(_:declaredBytes:)``).
    /// - Returns: What happened to the head.
    @inlinable @discardableResult
    public func deliverHead(_ head: Driver.Head, declaredBytes: Int64? = nil) -> State.HeadDelivery {
        let (delivery, waiter) = state.withLock { locked in
            let delivery = locked.machine.headArrived(head, declaredBytes: declaredBytes)
            guard delivery == .resumeWaiter else { return (delivery, UnsafeContinuation<Driver.Head, any Error>?.none) }
            defer { locked.headWaiter = nil }
            return (delivery, locked.headWaiter)
        }
        waiter?.resume(returning: head)
        return delivery
    }

    /// Hands the response head over and records the I/O's outcome in one step, for a response that
    /// completed before its head was handed over (a small one, in one turn of the I/O): the head's
    /// waiter wakes to an exchange that has already ended, so its body is there whole
    /// (``takeWholeBody(upTo:)``) instead of racing the end, and the stream locks once, not twice.
    /// The same as ``deliverHead(_:declaredBytes:)`` followed by ``finish(_:)``.
    /// - Parameters:
    ///   - head: The head.
    ///   - declaredBytes: The body length to hold a clean end to.
    ///   - result: The I/O's outcome.
    @inlinable public func deliverHead(
        _ head: Driver.Head, declaredBytes: Int64? = nil, finishing result: Result<Void, SwitchyardError>
    ) {
        let (waiter, waiters) = state.withLock { locked in
            var waiter: UnsafeContinuation<Driver.Head, any Error>?
            if locked.machine.headArrived(head, declaredBytes: declaredBytes) == .resumeWaiter {
                waiter = locked.headWaiter
                locked.headWaiter = nil
            }
            return (waiter, locked.machine.finish(result, host: driver.host).map { take($0, &locked) })
        }
        if let waiters { complete(waiters, stopReceiving: false) }
        waiter?.resume(returning: head)
    }

    /// Offers a body chunk (any thread, one at a time).
    @inlinable public func offer(_ incoming: Driver.Queue.Incoming) -> Offer {
        let (offer, reader, ending): (State.ChunkOffer, UnsafeContinuation<ArraySlice<UInt8>?, any Error>?, Waiters?) = state.withLock {
            locked in
            let offer = locked.machine.chunkOffered(incoming)
            switch offer {
            case .resumeReader:
                defer { locked.reader = nil }
                return (offer, locked.reader, Waiters?.none)
            case .failed(let ending):
                return (offer, nil, take(ending, &locked))
            default:
                return (offer, nil, nil)
            }
        }
        switch offer {
        case .accepted:
            return .accepted
        case .resumeReader:
            reader?.resume(returning: Driver.Queue.chunk(from: incoming))
            return .accepted
        case .acceptedAndPause:
            driver.pauseReceiving(self)
            return .accepted
        case .refusedAndPause:
            return .pause
        case .abort:
            return .abort
        case .failed:
            if let ending { complete(ending, stopReceiving: false) }
            return .abort
        }
    }

    /// Records the I/O's outcome, unless the exchange already ended; the end-of-exchange rules of
    /// ``ResponseStreamState/finish(_:host:)`` apply.
    @inlinable public func finish(_ result: Result<Void, SwitchyardError>) {
        let waiters = state.withLock { locked in
            locked.machine.finish(result, host: driver.host).map { take($0, &locked) }
        }
        if let waiters { complete(waiters, stopReceiving: false) }
    }

    // MARK: - Ending

    @inlinable func take(_ ending: State.Ending, _ locked: inout Locked) -> Waiters {
        defer {
            locked.headWaiter = nil
            locked.reader = nil
        }
        return Waiters(
            ending: ending, headWaiter: ending.resumeHeadWaiter ? locked.headWaiter : nil,
            reader: ending.resumeReader ? locked.reader : nil)
    }

    /// Outside the lock: the driver's end work first (a reader resumed with the end may read the
    /// final timings at once), then the waiters, then stopping the I/O. An unclaimed head is released
    /// here, with `waiters`.
    @inlinable func complete(_ waiters: Waiters, stopReceiving: Bool) {
        driver.ended(self, outcome: waiters.ending.outcome)
        switch waiters.ending.outcome {
        case .success:
            waiters.reader?.resume(returning: nil)
        case .failure(let error):
            waiters.headWaiter?.resume(throwing: error)
            waiters.reader?.resume(throwing: error)
        }
        if stopReceiving { driver.stopReceiving(self) }
    }
}
