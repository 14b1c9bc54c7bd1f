import HTTPTypes
import Switchyard
import Synchronization

/// The state one transfer shares between the caller's task and the event-loop thread.
///
/// The event loop delivers the head, body chunks and the final outcome; the caller awaits the
/// head and pulls body chunks; either side may cancel. Every path ends the exchange exactly once:
/// the first outcome recorded wins, and nothing is delivered after it.
///
/// The waiting caller is parked in an `UnsafeContinuation` rather than a checked one (which costs an
/// allocation and a runtime type lookup per wait): every continuation is taken out of the state under
/// the lock before it is resumed, so each is resumed exactly once, which the tests' cancellation and
/// failure paths exercise.
///
/// Back-pressure: the event loop stops accepting body bytes (and libcurl pauses the socket) once
/// ``highWaterBytes`` are buffered; the reader's next pull below ``lowWaterBytes`` resumes it.
final class CurlTransfer: Sendable {
    let request: Request
    let context: ExchangeContext
    let upload: CurlUploadPump?
    /// The URL and header lines, prepared for libcurl on the caller's task.
    let lines: CurlRequestLines
    private let loop: CurlEventLoop
    private let highWaterBytes: Int
    private let lowWaterBytes: Int
    /// Whether libcurl decodes the body, so the head must describe the decoded body.
    private let decodesContentEncoding: Bool

    private struct State {
        var headWaiter: UnsafeContinuation<[UInt8], any Error>?
        var headDelivered = false
        var chunks: [ArraySlice<UInt8>] = []
        var chunkIndex = 0
        var bufferedBytes = 0
        var reader: UnsafeContinuation<ArraySlice<UInt8>?, any Error>?
        var receivePaused = false
        /// Set once: `nil` while running, then the exchange's single outcome.
        var outcome: Result<Void, SwitchyardError>?

        var hasChunks: Bool { chunkIndex < chunks.count }

        /// Takes the oldest buffered chunk, releasing the queue's reference to it.
        mutating func popChunk() -> ArraySlice<UInt8> {
            let chunk = chunks[chunkIndex]
            chunks[chunkIndex] = []
            chunkIndex += 1
            bufferedBytes -= chunk.count
            if chunkIndex == chunks.count {
                chunks.removeAll(keepingCapacity: true)
                chunkIndex = 0
            } else if chunkIndex >= 32 {
                chunks.removeFirst(chunkIndex)
                chunkIndex = 0
            }
            return chunk
        }
    }

    private let state = Mutex(State())

    init(request: Request, context: ExchangeContext, upload: CurlUploadPump?, loop: CurlEventLoop,
         highWaterBytes: Int, decodesContentEncoding: Bool) {
        self.decodesContentEncoding = decodesContentEncoding
        self.lines = CurlRequestLines(request, decodesContentEncoding: decodesContentEncoding)
        self.request = request
        self.context = context
        self.upload = upload
        self.loop = loop
        self.highWaterBytes = highWaterBytes
        self.lowWaterBytes = highWaterBytes / 4
    }

    // MARK: - Caller side

    /// Hands the transfer to the event loop, waits for the response head and parses it (here, on the
    /// caller's task, not on the loop thread).
    func start() async throws -> Response {
        let block = try await headBlock()
        do throws(SwitchyardError) {
            let head = try CurlHeaderParser.parseHead(block)
            let declared = try ResponseHeadRules.validate(head, host: request.head.authority ?? "the server")
            let response = Response(head, body: makeBody(for: head, declared: declared))
            return decodesContentEncoding ? try response.decodingContent(limit: request.options.maxResponseBytes) : response
        } catch {
            cancel(error)
            throw error
        }
    }

    private func makeBody(for head: HTTPResponse, declared: Int64?) -> HTTPBody? {
        if request.head.method == .head || head.status == .noContent || head.status == .notModified {
            return nil
        }
        let length = declared.map { HTTPBody.Length.known($0) } ?? .unknown
        return HTTPBody(CurlResponseBody(transfer: self), length: length, replayability: .singleUse)
    }

    /// Hands the transfer to the event loop and waits for the raw response head.
    private func headBlock() async throws -> [UInt8] {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<[UInt8], any Error>) in
                let failure: SwitchyardError? = state.withLock { state in
                    if case .failure(let error)? = state.outcome { return error }
                    state.headWaiter = continuation
                    return nil
                }
                if let failure {
                    continuation.resume(throwing: failure)
                } else {
                    loop.submit(.start(self))
                }
            }
        } onCancel: {
            cancel(.cancelled)
        }
    }

    /// Returns the next body chunk, `nil` at the end, or throws the transfer's failure.
    func nextChunk() async throws -> ArraySlice<UInt8>? {
        if let ready = state.withLock({ take(&$0) }) { return try deliver(ready) }
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                let ready = state.withLock { state in
                    let ready = take(&state)
                    if ready == nil { state.reader = continuation }
                    return ready
                }
                if let ready {
                    continuation.resume(with: Result { try deliver(ready) })
                }
            }
        } onCancel: {
            cancel(.cancelled)
        }
    }

    /// What a reader gets when something is ready, and whether libcurl may resume receiving.
    private struct Ready {
        var result: Result<ArraySlice<UInt8>?, SwitchyardError>
        var unpause = false
    }

    /// Takes the next buffered chunk or the outcome; `nil` when the reader has to wait.
    private func take(_ state: inout State) -> Ready? {
        if state.hasChunks {
            let chunk = state.popChunk()
            let unpause = state.receivePaused && state.bufferedBytes <= lowWaterBytes
            if unpause { state.receivePaused = false }
            return Ready(result: .success(chunk), unpause: unpause)
        }
        switch state.outcome {
        case .success?: return Ready(result: .success(nil))
        case .failure(let error)?: return Ready(result: .failure(error))
        case nil: return nil
        }
    }

    private func deliver(_ ready: Ready) throws -> ArraySlice<UInt8>? {
        if ready.unpause { loop.submit(.unpause(self)) }
        return try ready.result.get()
    }

    /// Ends the exchange with `error` unless it already ended, and asks the loop to drop the handle.
    func cancel(_ error: SwitchyardError) {
        let (headWaiter, reader) = state.withLock { state in
            guard state.outcome == nil else {
                return (UnsafeContinuation<[UInt8], any Error>?.none,
                        UnsafeContinuation<ArraySlice<UInt8>?, any Error>?.none)
            }
            state.outcome = .failure(error)
            state.chunks.removeAll()
            state.chunkIndex = 0
            state.bufferedBytes = 0
            defer { state.headWaiter = nil; state.reader = nil }
            return (state.headWaiter, state.reader)
        }
        headWaiter?.resume(throwing: error)
        reader?.resume(throwing: error)
        upload?.fail(error)
        loop.submit(.cancel(self))
    }

    /// `true` once the exchange has an outcome.
    var isFinished: Bool { state.withLock { $0.outcome != nil } }

    // MARK: - Event-loop side

    /// Delivers the response head's raw block (event-loop thread).
    func deliverHead(_ block: [UInt8]) {
        let waiter = state.withLock { state in
            state.headDelivered = true
            defer { state.headWaiter = nil }
            return state.headWaiter
        }
        waiter?.resume(returning: block)
    }

    /// What the event loop should tell libcurl about a body chunk.
    enum ChunkDisposition { case accepted, pause, abort }

    /// Offers a body chunk (event-loop thread). `.pause` means the chunk was *not* taken.
    func deliverChunk(_ bytes: UnsafeRawBufferPointer) -> ChunkDisposition {
        let chunk = ArraySlice(bytes)
        let (disposition, reader): (ChunkDisposition, UnsafeContinuation<ArraySlice<UInt8>?, any Error>?) =
            state.withLock { state in
                if state.outcome != nil { return (.abort, nil) }
                if let reader = state.reader {
                    state.reader = nil
                    return (.accepted, reader)
                }
                if state.bufferedBytes >= highWaterBytes {
                    state.receivePaused = true
                    return (.pause, nil)
                }
                state.chunks.append(chunk)
                state.bufferedBytes += chunk.count
                return (.accepted, nil)
            }
        reader?.resume(returning: chunk)
        return disposition
    }

    /// Records the final outcome (event-loop thread); ignored if the exchange already ended.
    func finish(_ result: Result<Void, SwitchyardError>) {
        let (headWaiter, reader, outcome) = state.withLock { state in
            guard state.outcome == nil else {
                return (UnsafeContinuation<[UInt8], any Error>?.none,
                        UnsafeContinuation<ArraySlice<UInt8>?, any Error>?.none,
                        Result<Void, SwitchyardError>?.none)
            }
            var result = result
            if case .success = result, !state.headDelivered {
                result = .failure(.protocolViolation("The server ended the exchange without a response head."))
            }
            state.outcome = result
            defer { state.headWaiter = nil; state.reader = nil }
            return (state.headWaiter, state.reader, result)
        }
        guard let outcome else { return }
        if case .failure(let error) = outcome {
            headWaiter?.resume(throwing: error)
            reader?.resume(throwing: error)
            upload?.fail(error)
        } else {
            reader?.resume(returning: nil)
        }
    }
}
