import SwitchyardCore

/// Loads a paged list page by page: first page, next page, refresh, a jump to a page, the page
/// before; de-duplicates items across pages and publishes the list's ``PageListState``.
///
/// ```swift
/// let loader = PageLoader(source: OrdersSource(client: client), identity: \.id, rule: .flag, pageSize: 20)
/// await loader.loadFirst()
/// for await state in await loader.states() { render(state) }      // from the UI
/// await loader.loadNext()                                          // when the user scrolls to the end
/// ```
///
/// ### What it guarantees
///
/// - **De-duplication.** Servers insert items while a list is read, so consecutive pages overlap.
///   An item whose identity the list already holds is counted as a duplicate and not added again;
///   items keep the order in which they were first seen.
/// - **Roll-back.** The page index advances only when a page succeeds. After a failed (or empty)
///   next page, the next ``loadNext()`` asks for the same page again.
/// - **One next page at a time.** A ``loadNext()`` while a next page is loading starts nothing: it
///   waits for the load in flight and returns its result. A ``loadNext()`` during any other load
///   returns ``PageLoadOutcome/skipped(_:)`` with ``PageLoadSkipReason/busy``.
/// - **Atomic refresh.** ``refresh()`` cancels a next, previous or jump load in flight (its task is
///   cancelled, so the client stops the exchange and that load ends ``PageLoadOutcome/cancelled``),
///   loads the first page, and replaces the items only when it succeeds; a failed refresh keeps
///   the old items.
///
/// A ``loadNext()`` is never refused because the list looks complete: at the end of a list it
/// asks for the next page anyway (new items may have arrived). Read ``hasNext`` before asking.
///
/// Loads belong to the loader, not to the task that asked for them: cancelling the calling task
/// does not cancel a load others may be waiting for. Call ``cancel()`` instead.
public actor PageLoader<Source: PageSource, ID: Hashable & Sendable> {
    /// What the list holds.
    public typealias Item = Source.Item

    /// Where pages come from.
    public nonisolated let source: Source
    /// How the loader decides whether a page has a next one.
    public nonisolated let rule: HasNextRule
    /// The index of the list's first page as the API counts pages (often `1` or `0`).
    public nonisolated let firstPage: Int
    /// The page size asked for (``PageRequest/size``), `nil` to let the server decide.
    public nonisolated let pageSize: Int?

    private let identity: @Sendable (Item) -> ID

    /// The list's current state.
    public var state: PageListState<Item> { broadcast.current }

    /// The list as loaded so far; empty before the first page. Replaced by a successful first page,
    /// refresh or jump; kept by everything that fails.
    var window = PageWindow<Item, ID>()
    /// The load in flight, if any.
    var inFlight: InFlight?
    private var nextLoadID: UInt64 = 0
    /// The state and its subscribers; releasing the loader ends their streams.
    let broadcast = StateBroadcast(PageListState<Item>.notStarted)
    /// The load whose chain reports may change the state, and the items its states show (see
    /// ``publish(_:reportsFrom:)``).
    let reportingLoad = Lock<ReportingLoad?>(nil)

    /// The load in flight as its chain reports see it.
    struct ReportingLoad {
        let id: UInt64
        let kind: PageLoadKind
        /// The list shown while it runs (the list before it, or an interim page).
        let items: [Item]
    }

    /// A load in flight, which later callers may join.
    struct InFlight {
        let id: UInt64
        let kind: PageLoadKind
        let task: Task<PageLoadResult, Never>
        /// Calls that joined the load instead of starting one (for tests and diagnostics).
        var joinedCalls = 0
    }

    /// Creates a loader; nothing is loaded until ``loadFirst()`` or ``loadNext()``.
    /// - Parameters:
    ///   - source: Where pages come from.
    ///   - identity: An item's identity, for de-duplication across pages.
    ///   - rule: How to decide whether a page has a next one; by default a short page is the last.
    ///   - firstPage: The first page's index as the API counts pages.
    ///   - pageSize: The page size to ask for, `nil` to let the server decide.
    public init(
        source: Source, identity: @escaping @Sendable (Item) -> ID, rule: HasNextRule = .shortPage(),
        firstPage: Int = 1, pageSize: Int? = nil
    ) {
        self.source = source
        self.identity = identity
        self.rule = rule
        self.firstPage = firstPage
        self.pageSize = pageSize
    }

    // MARK: - Reading the list

    /// The list's items, de-duplicated, in first-seen order.
    public var items: [Item] { window.items }

    /// Whether the last page loaded has a next one.
    public var hasNext: Bool { window.hasNext }

    /// The lowest and highest page index loaded, `nil` while the list has no page.
    public var loadedPages: ClosedRange<Int>? { window.pages }

    /// Whether the list starts at the first page (nothing before it to load).
    public var isFirstPage: Bool { window.pages?.lowerBound == firstPage }

    /// Whether the list has a page and the last one loaded has no next one.
    public var isLastPage: Bool { window.pages != nil && !window.hasNext }

    /// Whether a load is in flight.
    public var isLoading: Bool { inFlight != nil }

    /// Where the latest page put in the list came from (the network, a cache, a stale cache
    /// entry), when its source says; `nil` before the first page.
    public private(set) var lastPageSource: ResponseSource?

    /// How many calls are waiting for the load in flight without having started it.
    var joinedCalls: Int { inFlight?.joinedCalls ?? 0 }

    // MARK: - Loading

    /// Loads the first page and makes it the list, replacing what the list held when it succeeds.
    ///
    /// During a first-page load or refresh it joins that load; any other load in flight is cancelled.
    /// - Returns: The load's result.
    @discardableResult
    public func loadFirst() async -> PageLoadResult {
        await restart(.first)
    }

    /// Loads the first page again and replaces the list with it when it succeeds; on failure the
    /// list keeps its items (state ``PageListState/failed(_:items:)``). A list without a page yet
    /// gets a ``PageLoadKind/first`` load.
    ///
    /// Cancels a next, previous or jump load in flight; joins a first-page load or refresh in flight.
    /// - Returns: The load's result.
    @discardableResult
    public func refresh() async -> PageLoadResult {
        await restart(window.pages == nil ? .first : .refresh)
    }

    /// Loads the page after the last one loaded and appends its new items; before the first page,
    /// loads the first page.
    ///
    /// While a next page is loading, waits for it and returns its result (no second load). During
    /// another kind of load, returns ``PageLoadOutcome/skipped(_:)`` with ``PageLoadSkipReason/busy``.
    /// - Returns: The load's result.
    @discardableResult
    public func loadNext() async -> PageLoadResult {
        if let current = inFlight {
            if current.kind == .next { return await join(current) }
            return skipped(.next, .busy)
        }
        guard let pages = window.pages else { return await restart(.first) }
        return await begin(.next, index: pages.upperBound + 1)
    }

    /// Jumps to page `index`: loads it and makes it the list (replacing what it held) when it has
    /// items; ``loadNext()`` and ``loadPrevious()`` then continue from it.
    ///
    /// Cancels any other load in flight; joins a jump to the same page. An empty page leaves the
    /// list unchanged (``PageLoadOutcome/noData``), unless the list had no page yet.
    /// - Parameter index: The page's index as the API counts pages.
    /// - Returns: The load's result.
    @discardableResult
    public func loadPage(_ index: Int) async -> PageLoadResult {
        if let current = inFlight {
            if current.kind == .page(index) { return await join(current) }
            supersede()
        }
        return await begin(.page(index), index: index)
    }

    /// Loads the page before the first one loaded (after a ``loadPage(_:)`` jump) and puts its new
    /// items in front.
    ///
    /// Returns ``PageLoadOutcome/skipped(_:)`` with ``PageLoadSkipReason/noPreviousPage`` when the
    /// list starts at ``firstPage`` or has no page, and with ``PageLoadSkipReason/busy`` during
    /// another kind of load; joins a previous-page load in flight.
    /// - Returns: The load's result.
    @discardableResult
    public func loadPrevious() async -> PageLoadResult {
        if let current = inFlight {
            if current.kind == .previous { return await join(current) }
            return skipped(.previous, .busy)
        }
        guard let pages = window.pages, pages.lowerBound > firstPage else {
            return skipped(.previous, .noPreviousPage)
        }
        return await begin(.previous, index: pages.lowerBound - 1)
    }

    /// Cancels the load in flight, if any: its task is cancelled (the client stops the exchange),
    /// it ends ``PageLoadOutcome/cancelled`` for every call waiting for it, and the state becomes
    /// ``PageListState/cancelled(items:)`` at once, with the list unchanged. The next call starts a
    /// new load.
    public func cancel() {
        guard inFlight != nil else { return }
        supersede()
        publish(.cancelled(items: window.items))
    }

    // MARK: - Running a load

    /// A first-page load (`.first` or `.refresh`): joins one in flight, supersedes any other.
    private func restart(_ kind: PageLoadKind) async -> PageLoadResult {
        if let current = inFlight {
            if current.kind == .first || current.kind == .refresh { return await join(current) }
            supersede()
        }
        return await begin(kind, index: firstPage)
    }

    /// Waits for `load`, which another call started, and returns its result.
    private func join(_ load: InFlight) async -> PageLoadResult {
        inFlight?.joinedCalls += 1
        return await load.task.value
    }

    /// Cancels the load in flight and forgets it: it ends `.cancelled` without touching the state,
    /// which the load replacing it owns.
    private func supersede() {
        inFlight?.task.cancel()
        inFlight = nil
    }

    /// Starts a load of page `index` as the load in flight and waits for its result.
    private func begin(_ kind: PageLoadKind, index: Int) async -> PageLoadResult {
        nextLoadID += 1
        let id = nextLoadID
        let request = makeRequest(index: index)
        // The task runs `perform` on this actor only after this method suspends below, so
        // `inFlight` is set before the load can look at it.
        let observer = observer(ofLoad: id)
        let task = Task {
            await ActivityReporting.$observer.withValue(observer) {
                await self.perform(id: id, kind: kind, request: request)
            }
        }
        inFlight = InFlight(id: id, kind: kind, task: task)
        publish(.running(kind, items: window.items), reportsFrom: ReportingLoad(id: id, kind: kind, items: window.items))
        return await task.value
    }

    /// What to ask the source for page `index`.
    private func makeRequest(index: Int) -> PageRequest {
        let size = window.serverPageSize ?? pageSize
        // Without a known size, only the page after the highest one has a known offset.
        let offset =
            size.map { max(0, index - firstPage) * $0 }
            ?? (index == (window.pages?.upperBound ?? firstPage - 1) + 1 ? window.endOffset : 0)
        return PageRequest(index: index, offset: offset, cursor: window.cursor(for: index), size: pageSize)
    }

    /// Fetches the page, then (back on the actor) settles the load unless it was superseded.
    private func perform(id: UInt64, kind: PageLoadKind, request: PageRequest) async -> PageLoadResult {
        let fetched: Result<Page<Item>, SwitchyardError>
        do {
            fetched = .success(
                try await source.loadPage(request) { page in await self.show(interim: page, id: id, kind: kind, request: request) })
        } catch {
            fetched = .failure(error)
        }
        let isCurrent = inFlight?.id == id
        if isCurrent { inFlight = nil }
        guard isCurrent, !Task.isCancelled, fetched.error?.kind != .cancelled else {
            // A superseded or cancelled load leaves the state to whoever ended it; only a source
            // that gave up by itself (cancelled from elsewhere) is reported here.
            if isCurrent { publish(.cancelled(items: window.items)) }
            return PageLoadResult(kind: kind, page: request.index, outcome: .cancelled, hasNext: window.hasNext)
        }
        switch fetched {
        case .failure(let error):
            publish(.failed(error, items: window.items))
            return PageLoadResult(kind: kind, page: request.index, outcome: .failed(error), hasNext: window.hasNext)
        case .success(let page):
            return settle(page, kind: kind, request: request)
        }
    }

    /// Puts an interim first page or refresh (a cached page before the network's) in the list while
    /// load `id` goes on; other kinds of load ignore interim pages.
    private func show(interim page: Page<Item>, id: UInt64, kind: PageLoadKind, request: PageRequest) {
        guard inFlight?.id == id, kind == .first || kind == .refresh, !page.items.isEmpty else { return }
        var updated = PageWindow<Item, ID>()
        _ = updated.add(page, index: request.index, offset: request.offset, inFront: false, identity: identity)
        let size = page.pageSize ?? window.serverPageSize ?? pageSize
        updated.hasNext = rule.hasNext(after: page, position: request.offset + page.items.count, pageSize: size)
        window = updated
        lastPageSource = page.source
        publish(.running(kind, items: window.items), reportsFrom: ReportingLoad(id: id, kind: kind, items: window.items))
    }

    /// Applies a page that arrived for the load in flight and publishes the new state.
    private func settle(_ page: Page<Item>, kind: PageLoadKind, request: PageRequest) -> PageLoadResult {
        let index = request.index
        let size = page.pageSize ?? window.serverPageSize ?? pageSize
        let hasNext = rule.hasNext(after: page, position: request.offset + page.items.count, pageSize: size)
        let replaces = kind == .first || kind == .refresh || (kind == .page(index) && window.pages == nil)
        if page.items.isEmpty {
            if replaces {
                window = PageWindow()
                lastPageSource = page.source
                publish(.noData)
                return PageLoadResult(kind: kind, page: index, outcome: .noData, hasNext: false)
                    .from(page)
            }
            // An empty next, previous or jump page: the list and its page index stay as they were.
            if kind == .next { window.hasNext = hasNext }
            publishSettled()
            return PageLoadResult(kind: kind, page: index, outcome: .noData, hasNext: window.hasNext).from(page)
        }
        var updated = replaces || kind == .page(index) ? PageWindow<Item, ID>() : window
        let added = updated.add(
            page, index: index, offset: request.offset, inFront: kind == .previous, identity: identity)
        if kind != .previous { updated.hasNext = hasNext }
        window = updated
        lastPageSource = page.source
        publishSettled()
        return PageLoadResult(
            kind: kind, page: index, outcome: .succeeded, itemCount: page.items.count, newItemCount: added.new,
            duplicateCount: added.duplicates, hasNext: window.hasNext
        ).from(page)
    }

    private func skipped(_ kind: PageLoadKind, _ reason: PageLoadSkipReason) -> PageLoadResult {
        PageLoadResult(
            kind: kind, page: window.pages?.upperBound ?? firstPage, outcome: .skipped(reason), hasNext: window.hasNext)
    }

    /// Publishes the list as it is now: loaded, or no data when it has no page.
    private func publishSettled() {
        publish(window.pages == nil ? .noData : .succeeded(items: window.items, hasNext: window.hasNext))
    }
}

extension Result {
    /// The failure, if this is one.
    fileprivate var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

extension PageLoadResult {
    /// This result with the provenance of `page`.
    fileprivate func from<Item>(_ page: Page<Item>) -> Self {
        var result = self
        (result.source, result.age, result.decodingReport) = (page.source, page.age, page.decodingReport)
        return result
    }
}
