public import Switchyard

/// What a list screen shows: the state of a ``PageLoader``'s list, with the items to show in it.
///
/// ```swift
/// switch state {
/// case .notStarted: EmptyView()
/// case .loading(.first, _): ProgressView()
/// case .loading(_, let items): ItemList(items, footer: ProgressView())
/// case .loaded(let items, let hasNext): ItemList(items, footer: hasNext ? LoadMoreTrigger() : nil)
/// case .noData: Text("Nothing here yet")
/// case .failed(let error, let items) where items.isEmpty: ErrorView(error, retry: reload)
/// case .failed(let error, let items): ItemList(items, banner: error)
/// case .cancelled(let items): ItemList(items)
/// }
/// ```
public enum PageListState<Item: Sendable>: Sendable {
    /// No load has been asked for yet.
    case notStarted
    /// A load is in flight; `items` is the list as it was when it started.
    case loading(PageLoadKind, items: [Item])
    /// The list, de-duplicated in first-seen order, and whether a next page exists.
    case loaded(items: [Item], hasNext: Bool)
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
        case .loading(_, let items), .loaded(let items, _), .failed(_, let items), .cancelled(let items): items
        }
    }

    /// The state's stable name: `notStarted`, `loading`, `loaded`, `noData`, `failed` or `cancelled`.
    public var name: String {
        switch self {
        case .notStarted: "notStarted"
        case .loading: "loading"
        case .loaded: "loaded"
        case .noData: "noData"
        case .failed: "failed"
        case .cancelled: "cancelled"
        }
    }

    /// Whether a load is in flight.
    public var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }
}
