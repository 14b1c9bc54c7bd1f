public import HTTPTypes
public import SwitchyardCore

/// Where a ``Download`` is in its life.
///
/// ```
/// notStarted ─start()─▶ running ─pause()─▶ paused ─resume()─▶ running ─▶ completed | failed
///                           └──────────────── cancel() (from any non-final state) ──▶ cancelled
/// ```
public enum DownloadState: Sendable {
    /// Created, not started.
    case notStarted
    /// An exchange is in flight (or being verified and moved into place).
    case running
    /// Paused by ``Download/pause()`` with this many bytes in the partial file; ``Download/resume()``
    /// continues from there with a `Range` request.
    case paused(completedBytes: Int64)
    /// The file is complete, verified and in place.
    case completed(DownloadResult)
    /// The download failed; the partial file is kept so that a later download can resume it
    /// (except after a failed checksum, which removes it).
    case failed(SwitchyardError)
    /// Cancelled by ``Download/cancel()``; the partial file is kept.
    case cancelled

    /// Whether the download is over.
    public var isFinal: Bool {
        switch self {
        case .notStarted, .running, .paused: false
        case .completed, .failed, .cancelled: true
        }
    }

    /// `notStarted`, `running`, `paused`, `completed`, `failed` or `cancelled`.
    public var name: String {
        switch self {
        case .notStarted: "notStarted"
        case .running: "running"
        case .paused: "paused"
        case .completed: "completed"
        case .failed: "failed"
        case .cancelled: "cancelled"
        }
    }
}

/// A completed download.
public struct DownloadResult: Sendable {
    /// Where the file now is.
    public var path: String
    /// The file's size.
    public var byteCount: Int64
    /// The offset the last exchange continued from (a partial file left by an interrupted or
    /// paused download), or `nil` when the last exchange fetched the whole resource.
    public var resumedFrom: Int64?
    /// The head of the last response (`200`, or `206` for a resumed download).
    public var head: HTTPResponse
}
