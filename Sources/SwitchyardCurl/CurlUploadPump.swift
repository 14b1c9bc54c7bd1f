import Switchyard
import Synchronization

/// Moves a streamed request body from the caller's task to libcurl's read callback, with
/// back-pressure in both directions.
///
/// A producer task pulls chunks from the ``HTTPBody`` and waits while ``highWaterBytes`` are
/// queued; the read callback (event-loop thread) copies queued bytes into libcurl's buffer and,
/// when the queue is empty, pauses the upload until the producer adds more.
final class CurlUploadPump: Sendable {
    static let highWaterBytes = 256 * 1024

    /// What the read callback should return.
    enum ReadResult { case bytes(Int), pause, end, abort }

    private struct State {
        var chunks: [ArraySlice<UInt8>] = []
        var queuedBytes = 0
        var finished = false
        var failure: SwitchyardError?
        var readPaused = false
        var spaceWaiter: CheckedContinuation<Void, any Error>?
    }

    private let state = Mutex(State())

    // MARK: - Producer side

    /// Queues a chunk, waiting while the queue is full. Returns `true` if the read side was paused
    /// and must be resumed.
    func write(_ chunk: ArraySlice<UInt8>) async throws -> Bool {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let result: Result<Void, SwitchyardError>? = state.withLock { state in
                if let failure = state.failure { return .failure(failure) }
                if state.queuedBytes < Self.highWaterBytes { return .success(()) }
                state.spaceWaiter = continuation
                return nil
            }
            if let result { continuation.resume(with: result) }
        }
        return state.withLock { state in
            state.chunks.append(chunk)
            state.queuedBytes += chunk.count
            defer { state.readPaused = false }
            return state.readPaused
        }
    }

    /// Marks the end of the body. Returns `true` if the read side must be resumed.
    func finish() -> Bool {
        state.withLock { state in
            state.finished = true
            defer { state.readPaused = false }
            return state.readPaused
        }
    }

    /// Fails the upload: the producer stops, the read callback aborts.
    func fail(_ error: SwitchyardError) {
        let waiter = state.withLock { state in
            if state.failure == nil { state.failure = error }
            defer { state.spaceWaiter = nil }
            return state.spaceWaiter
        }
        waiter?.resume(throwing: error)
    }

    // MARK: - Event-loop side

    /// Copies up to `buffer.count` queued bytes into `buffer` (event-loop thread).
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        let (result, waiter) = state.withLock { state -> (ReadResult, CheckedContinuation<Void, any Error>?) in
            if state.failure != nil { return (.abort, nil) }
            guard !state.chunks.isEmpty else {
                if state.finished { return (.end, nil) }
                state.readPaused = true
                return (.pause, nil)
            }
            var written = 0
            while written < buffer.count, !state.chunks.isEmpty {
                let chunk = state.chunks[0]
                let count = min(chunk.count, buffer.count - written)
                UnsafeMutableRawBufferPointer(rebasing: buffer[written..<written + count])
                    .copyBytes(from: chunk.prefix(count))
                written += count
                if count == chunk.count {
                    state.chunks.removeFirst()
                } else {
                    state.chunks[0] = chunk.dropFirst(count)
                }
            }
            state.queuedBytes -= written
            var waiter: CheckedContinuation<Void, any Error>?
            if state.queuedBytes < Self.highWaterBytes {
                waiter = state.spaceWaiter
                state.spaceWaiter = nil
            }
            return (.bytes(written), waiter)
        }
        waiter?.resume()
        return result
    }
}
