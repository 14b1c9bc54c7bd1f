public import SwitchyardCore

/// The life of one response stream, as a pure value: events in, what to do out.
///
/// A transport's I/O produces a head, body chunks and an outcome; the caller waits for the head
/// and pulls chunks; either side may end it. This type decides every race between them and holds
/// no lock, no continuation and no clock: ``ResponseStream`` keeps it under a mutex, parks the
/// waiters and performs the actions it returns.
///
/// What it guarantees:
/// - **One head.** The first head is handed to the head waiter (or kept until one asks); later
///   heads, and heads after the end, are dropped.
/// - **Water marks.** Chunks queue in a ``ResponseChunkQueue``. Once ``ResponseChunkQueue/memoryBytes`` of the queue
///   reach the high mark, receiving pauses (how depends on the ``Overflow`` policy); the reader's
///   pull that leaves the queue at or below the low mark resumes it, once.
/// - **One outcome.** The first of ``finish(_:host:)`` and ``cancel(_:)`` wins; nothing is
///   delivered after a failure, and queued chunks are still read after a success.
/// - **Rules at the end.** A success without a head becomes ``TransportFailure/noResponseHead(host:)``;
///   with a declared length, a success with fewer bytes becomes
///   ``TransportFailure/truncatedBody(host:declared:received:)``; with a byte limit, a chunk that
///   passes it ends the exchange with ``SwitchyardError/responseTooLarge(limit:)``.
///
/// Races, in prose:
/// - A reader that parks has seen an empty queue, so a chunk offered while it is parked goes
///   straight to it (``ChunkOffer/resumeReader``) and never waits in the queue.
/// - A cancel that races a chunk: whichever takes the lock first wins; a chunk offered after the
///   end is refused (``ChunkOffer/abort``), a cancel after the end does nothing.
public struct ResponseStreamState<Head, Queue: ResponseChunkQueue> {
    /// What happens to a chunk offered while the queue is at its high mark.
    public enum Overflow: Sendable {
        /// The chunk is refused and receiving pauses; the I/O offers it again after resuming
        /// (libcurl's pause).
        case refuseAndPause
        /// The chunk is kept and receiving pauses (a stack that delivers what it already read).
        case keepAndPause
        /// The chunk is kept and receiving goes on: the queue bounds memory itself (e.g. by spilling to disk).
        case keep
    }

    /// What the head waiter should do.
    public enum HeadRequest {
        /// Park: the head has not arrived and the exchange has not ended.
        case park
        /// Take this head.
        case head(Head)
        /// Throw: the exchange failed.
        case fail(SwitchyardError)
    }

    /// What the I/O's head does.
    public enum HeadDelivery: Equatable, Sendable {
        /// Resume the parked head waiter with the head.
        case resumeWaiter
        /// Nobody waits yet: the head was kept for the first ``ResponseStreamState/waitForHead()``.
        case kept
        /// Dropped: a head arrived already, or the exchange ended.
        case dropped
    }

    /// What the reader should do.
    public enum ChunkRequest {
        /// Nothing is ready: park until a chunk or the end arrives (when ``readChunk(parking:)`` was
        /// asked to park, the reader is now registered as parked).
        case park
        /// Take this chunk; when `resumeReceiving`, the I/O must be resumed.
        case chunk(ArraySlice<UInt8>, resumeReceiving: Bool)
        /// The body ended cleanly.
        case end
        /// Throw `error`; `ending` is set when this pull ended the exchange (the queue failed), and
        /// its end-of-exchange work must be done.
        case fail(SwitchyardError, ending: Ending?)
    }

    /// What the I/O should do with an offered chunk.
    public enum ChunkOffer {
        /// Taken and queued.
        case accepted
        /// Not queued: resume the parked reader with it.
        case resumeReader
        /// Taken and queued; pause receiving (``Overflow/keepAndPause``).
        case acceptedAndPause
        /// Not taken: pause receiving and offer it again after resuming (``Overflow/refuseAndPause``).
        case refusedAndPause
        /// Not taken: the exchange has ended; stop receiving.
        case abort
        /// Not taken: this chunk ended the exchange (limit passed, queue failed); do `ending`'s work.
        case failed(Ending)
    }

    /// The end of the exchange: its outcome and the waiters to resume with it.
    public struct Ending {
        /// Creates an ending (the state machine does). Inlinable, so a transport's specialised stream
        /// builds it without looking up the generic type's metadata at run time.
        @inlinable init(
            outcome: Result<Void, SwitchyardError>, resumeHeadWaiter: Bool, resumeReader: Bool,
            unclaimedHead: Head?
        ) {
            self.outcome = outcome
            self.resumeHeadWaiter = resumeHeadWaiter
            self.resumeReader = resumeReader
            self.unclaimedHead = unclaimedHead
        }

        /// The single outcome.
        public let outcome: Result<Void, SwitchyardError>
        /// Whether a parked head waiter must be resumed (it throws the failure).
        public let resumeHeadWaiter: Bool
        /// Whether a parked reader must be resumed (with the end, or the failure).
        public let resumeReader: Bool
        /// A head that nobody took, to be released outside the lock (it may own the body whose
        /// release locks again).
        public let unclaimedHead: Head?
    }

    @usableFromInline enum HeadState {
        case awaiting(waiterParked: Bool)
        case kept(Head)
        case handedOut
    }

    @usableFromInline var head = HeadState.awaiting(waiterParked: false)
    @usableFromInline var queue: Queue
    @usableFromInline var readerParked = false
    @usableFromInline var receivePaused = false
    @usableFromInline var outcome: Result<Void, SwitchyardError>?
    @usableFromInline var receivedBytes: Int64 = 0
    @usableFromInline var declaredBytes: Int64?
    @usableFromInline let highWaterBytes: Int
    @usableFromInline let lowWaterBytes: Int
    @usableFromInline let overflow: Overflow
    @usableFromInline let byteLimit: Int64?

    /// A stream waiting for its head.
    /// - Parameters:
    ///   - queue: Where chunks wait for the reader.
    ///   - highWaterBytes: Queued bytes at which receiving pauses.
    ///   - lowWaterBytes: Queued bytes at or below which a pull resumes receiving (default: a quarter).
    ///   - overflow: What a full queue does to the next chunk.
    ///   - byteLimit: The most body bytes accepted (`nil`: the I/O enforces its own limit, or none).
    @inlinable public init(
        queue: Queue, highWaterBytes: Int, lowWaterBytes: Int? = nil, overflow: Overflow,
        byteLimit: Int64? = nil
    ) {
        self.queue = queue
        self.highWaterBytes = highWaterBytes
        self.lowWaterBytes = lowWaterBytes ?? highWaterBytes / 4
        self.overflow = overflow
        self.byteLimit = byteLimit
    }

    /// `true` once the exchange has its outcome.
    @inlinable public var isFinished: Bool { outcome != nil }

    /// Whether the I/O is paused because the reader is behind.
    @inlinable public var isReceivingPaused: Bool { receivePaused }

    /// Whether a head arrived (whether or not anyone took it yet).
    @inlinable public var hasReceivedHead: Bool {
        if case .awaiting = head { return false }
        return true
    }

    // MARK: - Caller side

    /// The caller waits for the head. On ``HeadRequest/park`` it must park before releasing the lock.
    @inlinable public mutating func waitForHead() -> HeadRequest {
        if case .kept(let kept) = head {
            head = .handedOut
            return .head(kept)
        }
        if case .failure(let error)? = outcome { return .fail(error) }
        head = .awaiting(waiterParked: true)
        return .park
    }

    /// The reader wants the next chunk.
    /// - Parameter parking: Whether a reader that finds nothing is registered as parked; it must then
    ///   park before releasing the lock. `false` only looks (a fast path that avoids a continuation).
    @inlinable public mutating func readChunk(parking: Bool = true) -> ChunkRequest {
        do throws(SwitchyardError) {
            if let chunk = try queue.popFirst() {
                let resume = receivePaused && queue.memoryBytes <= lowWaterBytes
                if resume { receivePaused = false }
                return .chunk(chunk, resumeReceiving: resume)
            }
        } catch {
            return .fail(error, ending: end(.failure(error)))
        }
        switch outcome {
        case .success?: return .end
        case .failure(let error)?: return .fail(error, ending: nil)
        case nil:
            readerParked = parking
            return .park
        }
    }

    // MARK: - I/O side

    /// The response head arrived.
    /// - Parameters:
    ///   - arrived: The head.
    ///   - declaredBytes: The body length the head declares, when the bytes offered are the
    ///     bytes it counts: a clean end short of it is a truncated body. `nil` when the I/O detects
    ///     truncation itself or the length is unknown.
    @inlinable public mutating func headArrived(_ arrived: Head, declaredBytes: Int64? = nil) -> HeadDelivery {
        guard outcome == nil, case .awaiting(let waiterParked) = head else { return .dropped }
        self.declaredBytes = declaredBytes
        if waiterParked {
            head = .handedOut
            return .resumeWaiter
        }
        head = .kept(arrived)
        return .kept
    }

    /// A body chunk arrived.
    @inlinable public mutating func chunkOffered(_ incoming: Queue.Incoming) -> ChunkOffer {
        guard outcome == nil else { return .abort }
        let count = Queue.byteCount(of: incoming)
        if let byteLimit, receivedBytes + Int64(count) > byteLimit {
            return .failed(end(.failure(.responseTooLarge(limit: byteLimit))))
        }
        if readerParked {
            // A parked reader saw an empty queue: the chunk goes straight to it.
            readerParked = false
            receivedBytes += Int64(count)
            return .resumeReader
        }
        let full = queue.memoryBytes >= highWaterBytes
        if full, overflow == .refuseAndPause {
            receivePaused = true
            return .refusedAndPause
        }
        do throws(SwitchyardError) {
            try queue.append(incoming)
        } catch {
            return .failed(end(.failure(error)))
        }
        receivedBytes += Int64(count)
        if overflow == .keepAndPause, !receivePaused, queue.memoryBytes >= highWaterBytes {
            receivePaused = true
            return .acceptedAndPause
        }
        return .accepted
    }

    /// The I/O ended the exchange: `.success` after the last chunk, or its failure.
    /// - Parameters:
    ///   - result: `.success` after the last chunk, or the failure.
    ///   - host: The server's name, for the message of a broken rule (evaluated only then).
    /// - Returns: The ending, or `nil` when the exchange had already ended.
    @inlinable public mutating func finish(
        _ result: Result<Void, SwitchyardError>,
        host: @autoclosure () -> String
    ) -> Ending? {
        guard outcome == nil else { return nil }
        var result = result
        if case .success = result {
            if case .awaiting = head {
                result = .failure(TransportFailure.noResponseHead(host: host()))
            } else if let declaredBytes, receivedBytes < declaredBytes {
                result = .failure(
                    TransportFailure.truncatedBody(
                        host: host(), declared: declaredBytes,
                        received: receivedBytes))
            }
        }
        return end(result)
    }

    /// Either side ends the exchange with `error` (cancelled, deadline, dropped body…).
    /// - Returns: The ending, or `nil` when the exchange had already ended.
    @inlinable public mutating func cancel(_ error: SwitchyardError) -> Ending? {
        guard outcome == nil else { return nil }
        return end(.failure(error))
    }

    // MARK: - Ending

    @inlinable mutating func end(_ result: Result<Void, SwitchyardError>) -> Ending {
        outcome = result
        var resumeHeadWaiter = false
        var unclaimedHead: Head?
        if case .failure = result {
            queue.removeAll()
            switch head {
            case .awaiting(let waiterParked):
                resumeHeadWaiter = waiterParked
                head = .awaiting(waiterParked: false)
            case .kept(let kept):
                unclaimedHead = kept
                head = .handedOut
            case .handedOut:
                break
            }
        }
        // A parked reader has an empty queue, so it is resumed with the end or the failure.
        let resumeReader = readerParked
        readerParked = false
        return Ending(
            outcome: result, resumeHeadWaiter: resumeHeadWaiter, resumeReader: resumeReader,
            unclaimedHead: unclaimedHead)
    }
}

extension ResponseStreamState where Queue == ResponseChunks {
    /// The whole body, taken at once, when the exchange already ended cleanly with every chunk still
    /// queued and at most `limit` bytes: a small response that arrived with its head can be handed
    /// out as one buffered body instead of streaming it chunk by chunk. `nil` (and nothing changes)
    /// while the exchange runs, after a failure, once a chunk was read, or above `limit`.
    /// - Parameter limit: The most bytes copied into one array.
    /// - Returns: The body, or `nil`.
    @inlinable public mutating func takeWholeBody(upTo limit: Int) -> ArraySlice<UInt8>? {
        guard case .success? = outcome, Int64(queue.memoryBytes) == receivedBytes, queue.memoryBytes <= limit else { return nil }
        guard var whole = queue.popFirst() else { return [] }
        while let chunk = queue.popFirst() { whole += chunk }  // usually none: a small body is one chunk
        return whole
    }
}

extension ResponseStreamState.HeadRequest: Sendable where Head: Sendable {}
extension ResponseStreamState.ChunkRequest: Sendable where Head: Sendable {}
extension ResponseStreamState.ChunkOffer: Sendable where Head: Sendable {}
extension ResponseStreamState.Ending: Sendable where Head: Sendable {}
