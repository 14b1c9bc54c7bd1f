public import SwitchyardCore

/// Moves a streamed request body from the task that iterates it to the transport's reader, with
/// back-pressure both ways: the producer waits while the queue is full, the reader learns when it
/// is empty and is told when to look again. An ``UploadQueueState`` under a mutex.
///
/// How the reader waits is the transport's: libcurl pauses the upload and is unpaused when
/// ``write(_:)`` or ``finish()`` returns `true`; a blocking reader waits on a semaphore that those
/// results (and ``fail(_:)``'s) signal.
public final class UploadPump: Sendable {
    /// The queued bytes at which the producer waits, unless told otherwise: 256 KiB.
    public static let defaultHighWaterBytes = 256 * 1024

    private struct Locked {
        var queue: UploadQueueState
        var writer: UnsafeContinuation<Void, any Error>?
    }

    private let state: Lock<Locked>

    /// An empty pump.
    /// - Parameter highWaterBytes: Queued bytes at which the producer waits.
    public init(highWaterBytes: Int = defaultHighWaterBytes) {
        state = Lock(Locked(queue: UploadQueueState(highWaterBytes: highWaterBytes)))
    }

    // MARK: - Producer side

    /// Queues a chunk, waiting while the queue is full.
    /// - Returns: Whether the reader was waiting and must be woken.
    /// - Throws: The upload's failure.
    public func write(_ chunk: ArraySlice<UInt8>) async throws -> Bool {
        try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
            let request = state.withLock { locked in
                let request = locked.queue.writeRequested()
                if case .park = request { locked.writer = continuation }
                return request
            }
            switch request {
            case .proceed: continuation.resume()
            case .park: break
            case .fail(let error): continuation.resume(throwing: error)
            }
        }
        return state.withLock { $0.queue.append(chunk) }
    }

    /// Marks the end of the body.
    /// - Returns: Whether the reader was waiting and must be woken.
    public func finish() -> Bool {
        state.withLock { $0.queue.finish() }
    }

    /// Fails the upload: the producer's wait and next write throw, the reader aborts.
    /// - Returns: Whether the reader was waiting and must be woken.
    @discardableResult
    public func fail(_ error: SwitchyardError) -> Bool {
        let (writer, wakeReader) = state.withLock { locked in
            let (resumeWriter, wakeReader) = locked.queue.fail(error)
            defer { locked.writer = nil }
            return (resumeWriter ? locked.writer : nil, wakeReader)
        }
        writer?.resume(throwing: error)
        return wakeReader
    }

    // MARK: - Reader side

    /// Copies up to `buffer.count` queued bytes into `buffer` (any thread, one reader).
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> UploadQueueState.ReadResult {
        let (result, writer) = state.withLock { locked in
            let (result, resumeWriter) = locked.queue.read(into: buffer)
            guard resumeWriter else { return (result, UnsafeContinuation<Void, any Error>?.none) }
            defer { locked.writer = nil }
            return (result, locked.writer)
        }
        writer?.resume()
        return result
    }
}

extension UploadPump {
    /// Pulls `body` into the pump until its end or a failure; run it on a task of its own, never on
    /// the transport's I/O thread.
    /// - Parameters:
    ///   - body: The streamed request body.
    ///   - wakeReader: Called when the reader was waiting (for bytes, the end or the failure).
    /// - Returns: `nil` once the body is complete; otherwise the failure, already recorded in the
    ///   pump, with which the caller ends its exchange.
    public func fill(from body: HTTPBody, wakeReader: () -> Void) async -> SwitchyardError? {
        do {
            for try await chunk in body where !chunk.isEmpty {
                if try await write(chunk) { wakeReader() }
            }
            if finish() { wakeReader() }
            return nil
        } catch {
            let failure = TransportFailure.requestBodyFailed(error)
            if fail(failure) { wakeReader() }
            return failure
        }
    }
}
