import Dispatch
import Foundation
import SwitchyardCore
import SwitchyardTransportKit
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Moves a streamed request body from the task that iterates it to URLSession (Apple platforms),
/// which reads it through a bound stream pair fed by a dedicated writer thread.
///
/// Not used on Linux: corelibs reads body streams with blocking reads on a work queue that every
/// session in the process shares, so waiting there for a producer stalls all of URLSession (and
/// deadlocks when the producer needs the threads that wait). Linux spools instead
/// (``RequestBodySpool``).
///
/// The producer waits while the kit's ``UploadPump`` is full; the reader blocks on a semaphore while
/// nothing is queued. Failing the pipe wakes both, so cancelling never leaves URLSession's thread blocked.
final class RequestBodyPipe: Sendable {
    /// The shared pump: the producer's side and the queue.
    let pump = UploadPump()
    private let dataReady = DispatchSemaphore(value: 0)

    // MARK: - Producer side

    /// Pulls `body` into the pipe until its end or a failure.
    /// - Returns: The failure, if any (the pipe has failed with it).
    func fill(from body: HTTPBody) async -> SwitchyardError? {
        await pump.fill(from: body) { dataReady.signal() }
    }

    /// Fails the pipe: the producer stops and the reader gets an error.
    func fail(_ error: SwitchyardError) {
        if pump.fail(error) { dataReady.signal() }
    }

    // MARK: - Reader side (the writer thread)

    /// Copies up to `maxLength` bytes into `buffer`, blocking until some are queued.
    /// - Returns: The number of bytes copied, `0` at the end of the body, `-1` after a failure.
    func read(into buffer: UnsafeMutablePointer<UInt8>, maxLength: Int) -> Int {
        while true {
            switch pump.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: maxLength)) {
            case .bytes(let count): return count
            case .end: return 0
            case .failed: return -1
            case .empty: dataReady.wait()
            }
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
