public import HTTPTypes
public import SwitchyardActivity
public import SwitchyardCore

/// Where a transfer (a ``Download`` or an ``Upload``) is in its life, in the vocabulary calls,
/// transfers and paged lists share (`ActivityPhase`).
///
/// ```
/// notStarted ─start()─▶ running ─pause()─▶ paused ─resume()─▶ running ─▶ succeeded | failed
///                        ▲   │
///                        │   ▼ (a limit or a retry wait)
///                   queued / waitingToRetry
///                           └──────────── cancel() (from any non-final state) ──▶ cancelled
/// ```
public enum TransferState<Success: Sendable>: Sendable {
    /// Created, not started.
    case notStarted
    /// Waiting behind a concurrency or rate limit before its exchange is sent.
    case queued
    /// An exchange is in flight (or the result is being verified and put in place).
    case running
    /// An exchange failed; attempt `attempt` follows after `delay` (`nil`: when the network is back).
    case waitingToRetry(attempt: Int, delay: Duration?)
    /// Paused by the app with this many bytes transferred; resuming continues from there.
    case paused(completedBytes: Int64)
    /// The transfer is complete (and, for a download, verified and in place).
    case succeeded(Success)
    /// The transfer failed; what was transferred is kept so that a later transfer can resume it
    /// (except after a failed checksum, which removes a download's partial file).
    case failed(SwitchyardError)
    /// Cancelled; what was transferred is kept.
    case cancelled

    /// The state's phase, without its values.
    public var phase: ActivityPhase {
        switch self {
        case .notStarted: .notStarted
        case .queued: .queued
        case .running: .running
        case .waitingToRetry(let attempt, let delay): .waitingToRetry(attempt: attempt, delay: delay)
        case .paused: .paused
        case .succeeded: .succeeded
        case .failed: .failed
        case .cancelled: .cancelled
        }
    }

    /// Whether the transfer is over.
    public var isFinal: Bool { phase.isFinal }

    /// The phase's name: `notStarted`, `queued`, `running`, `waitingToRetry`, `paused`,
    /// `succeeded`, `failed` or `cancelled`.
    public var name: String { phase.name }

    /// The result, when the transfer succeeded.
    public var success: Success? {
        if case .succeeded(let success) = self { return success }
        return nil
    }

    /// The error, when the transfer failed.
    public var error: SwitchyardError? {
        if case .failed(let error) = self { return error }
        return nil
    }
}

/// Where a ``Download`` is in its life.
public typealias DownloadState = TransferState<DownloadResult>

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
