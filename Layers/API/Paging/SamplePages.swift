public import SwitchyardCore

/// One generated item of ``SamplePages``.
public struct SampleItem: Sendable, Hashable, Identifiable {
    /// `1…count` for the list's items; `count + 1`, `count + 2`, … for items inserted later.
    public let id: Int
    /// `Item n`, or `New item n` for an inserted item.
    public let title: String

    /// Creates an item.
    /// - Parameters:
    ///   - id: The item's identity.
    ///   - title: The item's title.
    public init(id: Int, title: String) {
        self.id = id
        self.title = title
    }
}

/// A fake paged list for screens built before the API exists, for previews and for tests:
/// `count` items served `pageSize` per page, optionally with new items inserted at the top
/// before each page after the first (so pages overlap as on a live feed).
///
/// ```swift
/// let loader = PageLoader(source: SamplePages(count: 95, pageSize: 10), identity: \.id,
///                         rule: .total, pageSize: 10)
/// ```
///
/// Pages are read by ``PageRequest/offset``, so any first page index works. Each page reports
/// ``Page/hasNext``, ``Page/total`` (the list's current length) and ``Page/pageSize``.
/// Instances share their insertions with their copies.
public struct SamplePages: PageSource {
    /// The number of original items.
    public let count: Int
    /// Items per page when the request does not ask for a size.
    public let pageSize: Int
    /// Items inserted at the top before each page that does not start at offset 0.
    public let insertedPerPage: Int

    private let inserted = SharedCounter()

    /// Creates a sample list.
    /// - Parameters:
    ///   - count: The number of items.
    ///   - pageSize: Items per page when the request does not ask for a size.
    ///   - insertedPerPage: New items inserted at the top before each later page (default none).
    public init(count: Int, pageSize: Int, insertedPerPage: Int = 0) {
        self.count = max(0, count)
        self.pageSize = max(1, pageSize)
        self.insertedPerPage = max(0, insertedPerPage)
    }

    /// Serves the page at the request's offset from the list as it is now.
    /// - Parameter request: Which page.
    /// - Returns: The page.
    /// - Throws: `SwitchyardError.Kind.cancelled` when the task is cancelled.
    public func loadPage(_ request: PageRequest) async throws(SwitchyardError) -> Page<SampleItem> {
        if Task.isCancelled { throw .cancelled }
        let size = max(1, request.size ?? pageSize)
        let inserted = request.offset > 0 ? self.inserted.add(insertedPerPage) : self.inserted.value
        let length = count + inserted
        let start = min(max(0, request.offset), length)
        let end = min(start + size, length)
        let items = (start..<end).map { position in
            position < inserted
                ? SampleItem(id: count + inserted - position, title: "New item \(count + inserted - position)")
                : SampleItem(id: position - inserted + 1, title: "Item \(position - inserted + 1)")
        }
        return Page(items: items, hasNext: end < length, total: length, pageSize: size)
    }
}

/// A counter shared by copies of a value type.
private final class SharedCounter: Sendable {
    private let count = Lock(0)

    var value: Int { count.withLock { $0 } }

    /// Adds `amount` and returns the new count.
    func add(_ amount: Int) -> Int {
        count.withLock { count in
            count += amount
            return count
        }
    }
}
