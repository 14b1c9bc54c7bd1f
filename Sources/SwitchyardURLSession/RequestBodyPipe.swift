#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Dispatch
import Foundation
import Switchyard
import Synchronization

/// Moves a streamed request body from the task that iterates it to URLSession (Apple platforms),
/// which reads it through a bound stream pair fed by a dedicated writer thread.
///
/// Not used on Linux: corelibs reads body streams with blocking reads on a work queue that every
/// session in the process shares, so waiting there for a producer stalls all of URLSession (and
/// deadlocks when the producer needs the threads that wait). Linux spools instead
/// (``RequestBodySpool``).
///
/// The producer waits while ``highWaterBytes`` are queued; the reader blocks while nothing is
/// queued. Failing the pipe wakes both, so cancelling never leaves URLSession's thread blocked.
final class RequestBodyPipe: Sendable {
    static let highWaterBytes = 256 * 1024

    private struct State {
        var chunks: [ArraySlice<UInt8>] = []
        var queuedBytes = 0
        var finished = false
        var failure: SwitchyardError?
        var spaceWaiter: CheckedContinuation<Void, any Error>?
        var readerWaiting = false
    }

    private let state = Mutex(State())
    private let dataReady = DispatchSemaphore(value: 0)

    // MARK: - Producer side

    /// Queues a chunk, waiting while the queue is full.
    func write(_ chunk: ArraySlice<UInt8>) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let result: Result<Void, SwitchyardError>? = state.withLock { state in
                if let failure = state.failure { return .failure(failure) }
                if state.queuedBytes < Self.highWaterBytes { return .success(()) }
                state.spaceWaiter = continuation
                return nil
            }
            if let result { continuation.resume(with: result.mapError { $0 as any Error }) }
        }
        let wake = state.withLock { state in
            state.chunks.append(chunk)
            state.queuedBytes += chunk.count
            return takeReaderWaiting(&state)
        }
        if wake { dataReady.signal() }
    }

    /// Marks the end of the body.
    func finish() {
        let wake = state.withLock { state in
            state.finished = true
            return takeReaderWaiting(&state)
        }
        if wake { dataReady.signal() }
    }

    /// Fails the pipe: the producer stops and the reader gets an error.
    func fail(_ error: SwitchyardError) {
        let (waiter, wake) = state.withLock { state in
            if state.failure == nil { state.failure = error }
            defer { state.spaceWaiter = nil }
            return (state.spaceWaiter, takeReaderWaiting(&state))
        }
        waiter?.resume(throwing: error)
        if wake { dataReady.signal() }
    }

    private func takeReaderWaiting(_ state: inout State) -> Bool {
        defer { state.readerWaiting = false }
        return state.readerWaiting
    }

    // MARK: - Reader side (the writer thread)

    /// Copies up to `maxLength` bytes into `buffer`, blocking until some are queued.
    /// - Returns: The number of bytes copied, `0` at the end of the body, `-1` after a failure.
    func read(into buffer: UnsafeMutablePointer<UInt8>, maxLength: Int) -> Int {
        while true {
            let (copied, waiter): (Int?, CheckedContinuation<Void, any Error>?) = state.withLock { state in
                if state.failure != nil { return (-1, nil) }
                guard !state.chunks.isEmpty else {
                    if state.finished { return (0, nil) }
                    state.readerWaiting = true
                    return (nil, nil)
                }
                var written = 0
                while written < maxLength, !state.chunks.isEmpty {
                    let chunk = state.chunks[0]
                    let count = min(chunk.count, maxLength - written)
                    chunk.prefix(count).withUnsafeBufferPointer { source in
                        (buffer + written).update(from: source.baseAddress!, count: count)
                    }
                    written += count
                    if count == chunk.count { state.chunks.removeFirst() } else { state.chunks[0] = chunk.dropFirst(count) }
                }
                state.queuedBytes -= written
                var waiter: CheckedContinuation<Void, any Error>?
                if state.queuedBytes < Self.highWaterBytes {
                    waiter = state.spaceWaiter
                    state.spaceWaiter = nil
                }
                return (written, waiter)
            }
            waiter?.resume()
            if let copied { return copied }
            dataReady.wait()
        }
    }
}

#if !canImport(FoundationNetworking)
extension RequestBodyPipe {
    /// The stream URLSession reads this pipe through: a bound stream pair whose output side a
    /// dedicated thread feeds (URLSession schedules body streams on its own run loop and does not
    /// support custom `InputStream` subclasses).
    func makeInputStream() -> InputStream {
        var input: InputStream?
        var output: OutputStream?
        Stream.getBoundStreams(withBufferSize: 64 * 1024, inputStream: &input, outputStream: &output)
        guard let input, let output else { return InputStream(data: Data()) }
        // The output stream is used only by the writer thread below, after this hand-over.
        nonisolated(unsafe) let writerOutput = output
        let thread = Thread { [self] in
            writerOutput.open()
            defer { writerOutput.close() }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBufferPointer { read(into: $0.baseAddress!, maxLength: $0.count) }
                guard count > 0 else { return }
                var offset = 0
                while offset < count {
                    let written = buffer.withUnsafeBufferPointer {
                        writerOutput.write($0.baseAddress! + offset, maxLength: count - offset)
                    }
                    guard written > 0 else { return }
                    offset += written
                }
            }
        }
        thread.start()
        return input
    }
}
#endif
