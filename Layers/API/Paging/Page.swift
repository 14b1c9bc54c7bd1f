/// One page of a paged list, as a ``PageSource`` read it: the items, plus whatever the response
/// said about the pages after it.
///
/// Every field but ``items`` is optional; the ``HasNextRule`` of the ``PageLoader`` decides which
/// one it reads.
public struct Page<Item: Sendable>: Sendable {
    /// The page's items, in the server's order (possibly repeating items of earlier pages).
    public var items: [Item]
    /// The response's "there is more" flag, if it has one (read by ``HasNextRule/flag``).
    public var hasNext: Bool?
    /// The number of items in the whole list, if the response says (read by ``HasNextRule/total``).
    public var total: Int?
    /// The cursor to send for the next page, if the API uses cursors (read by ``HasNextRule/cursor``).
    public var nextCursor: String?
    /// The page size the server chose, when it decides rather than the client.
    public var pageSize: Int?
    /// Where the page's response came from (the network, a cache, a stale cache entry), when the
    /// source knows (``EndpointPageSource`` does); `nil` otherwise.
    public var source: ResponseSource?
    /// How old the page is when it came from a cache; `nil` for a network page.
    public var age: Duration?
    /// The items left out because they failed to decode (``ResponseDecoding/page(_:using:skippingInvalidElements:)``),
    /// with their indexes and reasons, and the lenient conversions made; empty otherwise.
    public var decodingReport = DecodingReport()

    /// Creates a page.
    /// - Parameters:
    ///   - items: The page's items.
    ///   - hasNext: The response's "there is more" flag, if any.
    ///   - total: The whole list's length, if the response says.
    ///   - nextCursor: The cursor for the next page, if any.
    ///   - pageSize: The page size the server chose, if it decides.
    public init(
        items: [Item], hasNext: Bool? = nil, total: Int? = nil, nextCursor: String? = nil, pageSize: Int? = nil
    ) {
        self.items = items
        self.hasNext = hasNext
        self.total = total
        self.nextCursor = nextCursor
        self.pageSize = pageSize
    }

    /// A page without items and without information: what a 204 or a missing list reads as.
    public static var empty: Self { Self(items: []) }
}
