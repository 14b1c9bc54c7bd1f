public import SwitchyardCore

/// Which kind of load a ``PageLoader`` is running; a list screen shows a different spinner for each.
public enum PageLoadKind: Sendable, Hashable {
    /// The first page of a list that has none yet (``PageLoader/loadFirst()``).
    case first
    /// The page after the last one loaded (``PageLoader/loadNext()``).
    case next
    /// The first page again, replacing the list on success (``PageLoader/refresh()``).
    case refresh
    /// A jump to this page, replacing the list on success (``PageLoader/loadPage(_:)``).
    case page(Int)
    /// The page before the first one loaded (``PageLoader/loadPrevious()``).
    case previous
}

/// Why a ``PageLoader`` operation did not start a load.
public enum PageLoadSkipReason: Sendable, Hashable {
    /// Another kind of load is in flight (a next page during a refresh, for instance).
    case busy
    /// There is no page before the first one loaded.
    case noPreviousPage
}

/// How one load ended.
public enum PageLoadOutcome: Sendable {
    /// The page had items; the list holds its new ones.
    case succeeded
    /// The page had no items. For a first page or a refresh the list is now empty
    /// (``PageListState/noData``); for a next or previous page the list is unchanged and the page
    /// index was not advanced, so a later ``PageLoader/loadNext()`` asks for the same page again.
    case noData
    /// The page could not be loaded; the list is unchanged and the page index was not advanced.
    case failed(SwitchyardError)
    /// The load was cancelled (``PageLoader/cancel()``, or a refresh that replaced a next-page load).
    case cancelled
    /// No load was started, for this reason.
    case skipped(PageLoadSkipReason)

    /// The outcome's stable name: `succeeded`, `noData`, `failed`, `cancelled` or `skipped`
    /// (the words of ``PageListState`` and the other states, `ActivityPhase`).
    public var name: String {
        switch self {
        case .succeeded: "succeeded"
        case .noData: "noData"
        case .failed: "failed"
        case .cancelled: "cancelled"
        case .skipped: "skipped"
        }
    }
}

/// What one ``PageLoader`` load did: the page, how it ended, and how many of its items were new.
public struct PageLoadResult: Sendable {
    /// The kind of load.
    public var kind: PageLoadKind
    /// The page's index as the API counts pages.
    public var page: Int
    /// How the load ended.
    public var outcome: PageLoadOutcome
    /// Items the page held (duplicates included); 0 unless ``outcome`` is ``PageLoadOutcome/succeeded``.
    public var itemCount: Int
    /// Items of the page the list did not hold yet.
    public var newItemCount: Int
    /// Items of the page the list already held (seen on an earlier page, or twice on this one).
    public var duplicateCount: Int
    /// Whether the list has a next page after this load.
    public var hasNext: Bool
    /// Where the page's response came from, when the load got one and its source says
    /// (``Page/source``); `nil` otherwise.
    public var source: ResponseSource?
    /// How old the page is when it came from a cache.
    public var age: Duration?
    /// What decoding the page left out or converted (``Page/decodingReport``).
    public var decodingReport = DecodingReport()

    /// Creates a result.
    /// - Parameters:
    ///   - kind: The kind of load.
    ///   - page: The page's index.
    ///   - outcome: How the load ended.
    ///   - itemCount: Items the page held.
    ///   - newItemCount: Items the list did not hold yet.
    ///   - duplicateCount: Items the list already held.
    ///   - hasNext: Whether the list has a next page.
    public init(
        kind: PageLoadKind, page: Int, outcome: PageLoadOutcome, itemCount: Int = 0, newItemCount: Int = 0,
        duplicateCount: Int = 0, hasNext: Bool
    ) {
        self.kind = kind
        self.page = page
        self.outcome = outcome
        self.itemCount = itemCount
        self.newItemCount = newItemCount
        self.duplicateCount = duplicateCount
        self.hasNext = hasNext
    }

    /// The error, when the load failed.
    public var error: SwitchyardError? {
        if case .failed(let error) = outcome { return error }
        return nil
    }
}
