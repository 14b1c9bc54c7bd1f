public import SwitchyardCore

/// Where a piece of work is in its life: one vocabulary for calls (`CallState`), transfers
/// (`TransferState`) and paged lists (`PageListState`), so a screen switches over the same words
/// whatever it shows.
///
/// ```
/// notStarted ─▶ queued ─▶ running ─▶ succeeded | noData | failed | cancelled
///                 ▲          │  ▲
///                 │          ▼  │
///                 └── waitingToRetry(attempt:delay:)      running ◀─▶ paused (transfers)
/// ```
///
/// Not every kind of work uses every phase: a call never pauses, a transfer never ends with no data.
public enum ActivityPhase: Sendable, Hashable, CustomStringConvertible {
    /// Created, not started: cancelling now means it never touches the wire.
    case notStarted
    /// Waiting behind a limit (a concurrency or rate limit) before its exchange is sent.
    case queued
    /// In the chain or on the wire.
    case running
    /// An attempt failed and the retry link waits before attempt `attempt` (2 for the first retry):
    /// for `delay`, or, when `delay` is `nil`, until something holding retries lifts (e.g. the
    /// network comes back).
    case waitingToRetry(attempt: Int, delay: Duration?)
    /// Paused by the app; resuming continues where it stopped.
    case paused
    /// Ended with a value.
    case succeeded
    /// Ended successfully without a value (a 204, an empty body, `null`, an empty first page).
    case noData
    /// Ended with an error.
    case failed
    /// Cancelled before it ended.
    case cancelled

    /// Whether the work is over.
    public var isFinal: Bool {
        switch self {
        case .notStarted, .queued, .running, .waitingToRetry, .paused: false
        case .succeeded, .noData, .failed, .cancelled: true
        }
    }

    /// Whether the work is under way: queued, running or waiting to retry (not paused).
    public var isActive: Bool {
        switch self {
        case .queued, .running, .waitingToRetry: true
        default: false
        }
    }

    /// The phase's stable name: `notStarted`, `queued`, `running`, `waitingToRetry`, `paused`,
    /// `succeeded`, `noData`, `failed` or `cancelled`.
    public var name: String {
        switch self {
        case .notStarted: "notStarted"
        case .queued: "queued"
        case .running: "running"
        case .waitingToRetry: "waitingToRetry"
        case .paused: "paused"
        case .succeeded: "succeeded"
        case .noData: "noData"
        case .failed: "failed"
        case .cancelled: "cancelled"
        }
    }

    /// The name, with the attempt and delay of `waitingToRetry` (e.g. `waitingToRetry(attempt: 2, delay: 0.5 seconds)`).
    public var description: String {
        guard case .waitingToRetry(let attempt, let delay) = self else { return name }
        return "waitingToRetry(attempt: \(attempt), delay: \(delay.map { "\($0)" } ?? "until the hold lifts"))"
    }
}

extension ActivityPhase {
    /// The phase of an exchange's reported activity.
    /// - Parameter activity: What the chain reported.
    public init(_ activity: ExchangeActivity) {
        switch activity {
        case .queued: self = .queued
        case .running: self = .running
        case .waitingForAttempt(let attempt, let delay): self = .waitingToRetry(attempt: attempt, delay: delay)
        }
    }
}
