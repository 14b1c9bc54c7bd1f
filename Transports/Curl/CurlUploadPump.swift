import SwitchyardCore
import SwitchyardTransportKit

/// Moves a streamed request body from the caller's task to libcurl's read callback: the kit's
/// ``UploadPump``, read the way libcurl reads — when nothing is queued the upload pauses, and the
/// producer's next chunk (or the end) unpauses it.
struct CurlUploadPump: Sendable {
    /// What the read callback should return.
    enum ReadResult {
        case bytes(Int)
        case pause, end, abort
    }

    /// The shared pump.
    let pump = UploadPump()

    /// Copies up to `buffer.count` queued bytes into `buffer` (event-loop thread).
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        switch pump.read(into: buffer) {
        case .bytes(let count): .bytes(count)
        case .empty: .pause
        case .end: .end
        case .failed: .abort
        }
    }

    /// Fails the upload: the producer stops, the read callback aborts.
    func fail(_ error: SwitchyardError) {
        pump.fail(error)
    }
}
