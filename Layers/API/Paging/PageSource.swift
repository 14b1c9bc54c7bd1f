public import SwitchyardCore

/// Fetches one page of a paged list: the one thing a ``PageLoader`` needs from an API.
///
/// A source is stateless from the loader's point of view: the loader says which page it wants in a
/// ``PageRequest`` (index, offset, cursor, size) and keeps everything else (items seen so far,
/// the page to ask for next, whether there is one) itself.
///
/// ### Use an existing source
///
/// - ``JSONPageSource`` reads pages of untyped JSON through a `Client`; `yard pages`
///   uses it.
/// - ``SamplePages`` generates items in memory, for screens built before the API exists.
/// - ``StitchedPageSource`` puts a fixed list (pinned items) in front of another source.
///
/// ### Implement a custom source
///
/// Ask the server for the page the request describes, and report what the response says about
/// what comes next; leave a field `nil` when the response does not say.
///
/// ```swift
/// struct OrdersSource: PageSource {
///     let client: Client
///     func loadPage(_ request: PageRequest) async throws(SwitchyardError) -> Page<Order> {
///         let url = "https://api.example.com/orders?page=\(request.index)&per_page=\(request.size ?? 20)"
///         let response = try await client.send(try Request(url: url))
///         guard response.head.status.kind == .successful else {
///             throw .httpStatus("orders page \(request.index): \(response.head.status)", response: response.head)
///         }
///         let list = try decodeOrders(response.body)   // your decoding, throwing `.decoding(…)`
///         return Page(items: list.orders, hasNext: list.hasMore)
///     }
/// }
/// ```
///
/// A response with no list at all (204, an empty body) is a page with no items, not an error.
public protocol PageSource<Item>: Sendable {
    /// What the list holds.
    associatedtype Item: Sendable

    /// Loads one page.
    ///
    /// Honour task cancellation: a ``PageLoader`` cancels a next-page load when the list is
    /// refreshed, and `Client.send(_:)` stops the exchange when its task is cancelled.
    /// - Parameter request: Which page to load.
    /// - Returns: The page's items and what the response says about the pages after it.
    /// - Throws: A `SwitchyardError`: `SwitchyardError.Kind.httpStatus`
    ///   for a refused page, `SwitchyardError.Kind.decoding` for a body that is not the
    ///   expected list, `SwitchyardError.Kind.cancelled` when the task was cancelled.
    func loadPage(_ request: PageRequest) async throws(SwitchyardError) -> Page<Item>

    /// Loads one page, first handing an earlier answer for it to `interim` when the source has one
    /// (a stored page before the network's: ``EndpointPageSource`` with a cache-then-network stage).
    /// A ``PageLoader`` shows an interim first page or refresh while the load goes on.
    ///
    /// The default calls ``loadPage(_:)`` and has no interim answer.
    /// - Parameters:
    ///   - request: Which page to load.
    ///   - interim: Receives an earlier answer, at most once, before the final one.
    /// - Returns: The final page.
    /// - Throws: As ``loadPage(_:)``.
    func loadPage(_ request: PageRequest, interim: @Sendable (Page<Item>) async -> Void)
        async throws(SwitchyardError) -> Page<Item>
}

extension PageSource {
    /// Calls ``loadPage(_:)``: no interim answer.
    /// - Parameters:
    ///   - request: Which page to load.
    ///   - interim: Not called.
    /// - Returns: The page.
    /// - Throws: As ``loadPage(_:)``.
    public func loadPage(_ request: PageRequest, interim: @Sendable (Page<Item>) async -> Void)
        async throws(SwitchyardError) -> Page<Item>
    {
        try await loadPage(request)
    }
}

/// Which page a ``PageLoader`` asks a ``PageSource`` for, in every form an API may want it.
public struct PageRequest: Sendable, Hashable {
    /// The page's number as the API counts pages (the loader's first page is often `1` or `0`).
    public var index: Int
    /// How many items come before this page: `(index − first page) × page size` when the page size
    /// is known (asked for, or reported by the server); otherwise, for the page after the last one
    /// loaded, the items received so far (duplicates included), and 0 for any other page.
    public var offset: Int
    /// The cursor the previous page handed out (``Page/nextCursor``), `nil` for the first page or
    /// when the API does not use cursors.
    public var cursor: String?
    /// How many items to ask for, `nil` to let the server decide.
    public var size: Int?

    /// Creates a page request.
    /// - Parameters:
    ///   - index: The page's number as the API counts pages.
    ///   - offset: How many items come before this page.
    ///   - cursor: The cursor from the previous page, if any.
    ///   - size: How many items to ask for, `nil` to let the server decide.
    public init(index: Int, offset: Int, cursor: String? = nil, size: Int? = nil) {
        self.index = index
        self.offset = offset
        self.cursor = cursor
        self.size = size
    }
}
