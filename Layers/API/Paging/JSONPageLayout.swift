/// Where a paged JSON list keeps its items and paging information, and how its pages are asked for:
/// what ``JSONPageSource`` needs to read an API without a model.
///
/// ```swift
/// // GET /orders?page=2&per_page=20 → {"data":{"items":[{"id":7,…}],"has_next":true}}
/// let layout = JSONPageLayout(items: "data.items", id: "id", hasNext: "data.has_next",
///                             sizeParameter: "per_page")
/// ```
public struct JSONPageLayout: Sendable, Hashable {
    /// How a page is named in the request's query.
    public enum PageParameter: Sendable, Hashable {
        /// The page's index (``PageRequest/index``) under this name, e.g. `page=3`.
        case number(name: String)
        /// The items before the page (``PageRequest/offset``) under this name, e.g. `offset=40`.
        case offset(name: String)
        /// The previous page's cursor (``PageRequest/cursor``) under this name, omitted for the
        /// first page; read the cursor with ``JSONPageLayout/nextCursor``.
        case cursor(name: String)
    }

    /// The path of the array of items, e.g. `data.items`; `null` there is an empty page.
    public var items: JSONPath
    /// The path of an item's identity inside the item, e.g. `id`; items are de-duplicated by it.
    public var id: JSONPath
    /// The path of the "there is more" flag, if the API has one.
    public var hasNext: JSONPath?
    /// The path of the whole list's length, if the API reports it.
    public var total: JSONPath?
    /// The path of the next page's cursor, if the API uses cursors.
    public var nextCursor: JSONPath?
    /// The path of the page size the server chose, if it decides.
    public var pageSize: JSONPath?
    /// How a page is named in the query; `page=N` by default.
    public var pageParameter: PageParameter
    /// The query name of the page size (e.g. `size`, `per_page`), or `nil` not to send one.
    public var sizeParameter: String?

    /// Creates a layout.
    /// - Parameters:
    ///   - items: The path of the array of items.
    ///   - id: The path of an item's identity inside the item.
    ///   - hasNext: The path of the "there is more" flag, if any.
    ///   - total: The path of the list's length, if any.
    ///   - nextCursor: The path of the next page's cursor, if any.
    ///   - pageSize: The path of the page size the server chose, if any.
    ///   - pageParameter: How a page is named in the query.
    ///   - sizeParameter: The query name of the page size, if one is sent.
    public init(
        items: JSONPath, id: JSONPath, hasNext: JSONPath? = nil, total: JSONPath? = nil, nextCursor: JSONPath? = nil,
        pageSize: JSONPath? = nil, pageParameter: PageParameter = .number(name: "page"), sizeParameter: String? = nil
    ) {
        self.items = items
        self.id = id
        self.hasNext = hasNext
        self.total = total
        self.nextCursor = nextCursor
        self.pageSize = pageSize
        self.pageParameter = pageParameter
        self.sizeParameter = sizeParameter
    }

    /// The rule the layout implies: ``HasNextRule/flag`` with a has-next path, else
    /// ``HasNextRule/total`` with a total path, else ``HasNextRule/cursor`` with a cursor path,
    /// else ``HasNextRule/shortPage(size:)``.
    public var hasNextRule: HasNextRule {
        if hasNext != nil { return .flag }
        if total != nil { return .total }
        if nextCursor != nil { return .cursor }
        return .shortPage()
    }
}
