/// How a ``PageLoader`` decides whether a page has a next one.
///
/// | Rule | There is a next page while… | When the page does not say |
/// |---|---|---|
/// | ``flag`` | ``Page/hasNext`` is `true` | falls back to ``shortPage(size:)`` |
/// | ``total`` | the loaded position (items before the page + the page's items) < ``Page/total`` | falls back to ``shortPage(size:)`` |
/// | ``shortPage(size:)`` | the page is full (at least the page size) | — |
/// | ``cursor`` | ``Page/nextCursor`` is present and not empty | no next page |
///
/// The loaded position counts duplicates: a list whose server inserts items at the top between
/// page loads reports a growing total, and the position (`pages × size` for full pages) reaches it
/// exactly when the last page has been read.
public enum HasNextRule: Sendable, Hashable {
    /// The response's own flag (`has_next`, `has_more`).
    case flag
    /// The response's total number of items, against the loaded position.
    case total
    /// A page shorter than `size` (or empty) is the last. `nil` uses the page size the server
    /// reported (``Page/pageSize``), else the loader's page size; with none known, only an empty page
    /// is the last.
    case shortPage(size: Int? = nil)
    /// The response's next cursor.
    case cursor

    /// Whether there is a page after `page`.
    /// - Parameters:
    ///   - page: The page just loaded.
    ///   - position: Items before the page plus the page's items.
    ///   - pageSize: The page size in effect (the server's, else the loader's), if known.
    /// - Returns: Whether to expect a next page.
    public func hasNext<Item>(after page: Page<Item>, position: Int, pageSize: Int?) -> Bool {
        switch self {
        case .flag:
            return page.hasNext ?? Self.shortPage().hasNext(after: page, position: position, pageSize: pageSize)
        case .total:
            guard let total = page.total else {
                return Self.shortPage().hasNext(after: page, position: position, pageSize: pageSize)
            }
            return position < total
        case .shortPage(let size):
            guard !page.items.isEmpty else { return false }
            guard let size = size ?? pageSize else { return true }
            return page.items.count >= size
        case .cursor:
            return page.nextCursor.map { !$0.isEmpty } ?? false
        }
    }
}
