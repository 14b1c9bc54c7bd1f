public import SwitchyardCore

/// One list from two sources: a fixed one (pinned items, a featured section) in front of a paged
/// one. Use it as a ``PageLoader``'s source and the loader de-duplicates across both: an item that
/// is pinned and also appears on a regular page is shown once, where it is pinned.
///
/// ```swift
/// let source = StitchedPageSource(pinned: PinnedOrders(client: client), pages: OrdersSource(client: client))
/// let loader = PageLoader(source: source, identity: \.id, rule: .flag, pageSize: 20)
/// ```
///
/// The first page (index ``firstPage``) is the pinned source's first page followed by the paged
/// source's first page, loaded concurrently; a refresh loads both again. Later pages come from the
/// paged source alone, and the paging information (flag, total, cursor, size) is always the paged
/// source's. With ``HasNextRule/shortPage(size:)`` or ``HasNextRule/total`` the pinned items count
/// toward the first page's length, which can cost one extra (empty) page load at the end of a
/// short list.
public struct StitchedPageSource<Pinned: PageSource, Pages: PageSource>: PageSource
where Pinned.Item == Pages.Item {
    /// The items of both sources.
    public typealias Item = Pages.Item

    /// The fixed source; only its first page is read.
    public let pinned: Pinned
    /// The paged source.
    public let pages: Pages
    /// The index of the first page, the one the pinned items go in front of.
    public let firstPage: Int

    /// Creates a stitched source.
    /// - Parameters:
    ///   - pinned: The fixed source; only its first page is read.
    ///   - pages: The paged source.
    ///   - firstPage: The index of the first page (the loader's ``PageLoader/firstPage``).
    public init(pinned: Pinned, pages: Pages, firstPage: Int = 1) {
        self.pinned = pinned
        self.pages = pages
        self.firstPage = firstPage
    }

    /// Loads a page of the paged source, with the pinned items in front of the first one.
    /// - Parameter request: Which page.
    /// - Returns: The page.
    /// - Throws: What either source throws.
    public func loadPage(_ request: PageRequest) async throws(SwitchyardError) -> Page<Item> {
        guard request.index == firstPage else { return try await pages.loadPage(request) }
        let pinnedRequest = PageRequest(index: firstPage, offset: 0)
        async let pinnedPage = Self.result { () async throws(SwitchyardError) in
            try await pinned.loadPage(pinnedRequest)
        }
        let regular = await Self.result { () async throws(SwitchyardError) in try await pages.loadPage(request) }
        let front = await pinnedPage
        var page = try regular.get()
        page.items = try front.get().items + page.items
        return page
    }

    private static func result<Value>(
        _ body: () async throws(SwitchyardError) -> Value
    ) async -> Result<Value, SwitchyardError> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}
