public import SwitchyardActivity
public import SwitchyardCore

/// What a list screen shows: the state of a ``PageLoader``'s list, with the items to show in it,
/// in the vocabulary calls, transfers and paged lists share (`ActivityPhase`).
///
/// ```swift
/// switch state {
/// case .notStarted: EmptyView()
/// case .queued(.first, _), .running(.first, _): ProgressView()
/// case .waitingToRetry(_, let items, let attempt, _): ItemList(items, footer: Text("Retrying (\(attempt))…"))
/// case .queued(_, let items), .running(_, let items): ItemList(items, footer: ProgressView())
/// case .succeeded(let items, let hasNext): ItemList(items, footer: hasNext ? LoadMoreTrigger() : nil)
/// case .noData: Text("Nothing here yet")
/// case .failed(let error, let items) where items.isEmpty: ErrorView(error, retry: reload)
/// case .failed(let error, let items): ItemList(items, banner: error)
/// case .cancelled(let items): ItemList(items)
/// }
/// ```
public enum PageListState<Item: Sendable>: Sendable {
    /// No load has been asked for yet.
    case notStarted
    /// A load waits behind a concurrency or rate limit; `items` is the list as it was when it started.
    case queued(PageLoadKind, items: [Item])
    /// A load is in flight; `items` is the list as it was when it started.
    case running(PageLoadKind, items: [Item])
    /// A load's attempt failed and attempt `attempt` follows after `delay` (`nil`: when the
    /// network is back); `items` is the list as it was when the load started.
    case waitingToRetry(PageLoadKind, items: [Item], attempt: Int, delay: Duration?)
    /// The list, de-duplicated in first-seen order, and whether a next page exists.
    case succeeded(items: [Item], hasNext: Bool)
    /// The first page (or a refresh) had no items: the list is empty.
    case noData
    /// The last load failed; `items` is the list as it was before it (kept, so the screen can
    /// show them with an error banner).
    case failed(SwitchyardError, items: [Item])
    /// The last load was cancelled; `items` is the list as it was before it.
    case cancelled(items: [Item])

    /// The items to show in this state.
    public var items: [Item] {
        switch self {
        case .notStarted, .noData: []
        case .queued(_, let items), .running(_, let items), .waitingToRetry(_, let items, _, _),
            .succeeded(let items, _), .failed(_, let items), .cancelled(let items):
            items
        }
    }

    /// The state's phase, without its values.
    public var phase: ActivityPhase {
        switch self {
        case .notStarted: .notStarted
        case .queued: .queued
        case .running: .running
        case .waitingToRetry(_, _, let attempt, let delay): .waitingToRetry(attempt: attempt, delay: delay)
        case .succeeded: .succeeded
        case .noData: .noData
        case .failed: .failed
        case .cancelled: .cancelled
        }
    }

    /// The kind of load under way, while one is (queued, running or waiting to retry).
    public var loadKind: PageLoadKind? {
        switch self {
        case .queued(let kind, _), .running(let kind, _), .waitingToRetry(let kind, _, _, _): kind
        default: nil
        }
    }

    /// The phase's name: `notStarted`, `queued`, `running`, `waitingToRetry`, `succeeded`,
    /// `noData`, `failed` or `cancelled`.
    public var name: String { phase.name }

    /// Whether a load is under way: queued, in flight or waiting to retry.
    public var isLoading: Bool { phase.isActive }
}
