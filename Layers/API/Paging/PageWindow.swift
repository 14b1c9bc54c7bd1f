/// The bookkeeping of a paged list: its de-duplicated items and which pages they came from.
///
/// A pure value driven by ``PageLoader``: a load works on a copy and the loader keeps the copy
/// only when the load succeeds, which is what makes a refresh atomic and rolls a failed page back.
struct PageWindow<Item: Sendable, ID: Hashable & Sendable>: Sendable {
    /// The items, in first-seen order (a previous page's new items go in front).
    private(set) var items: [Item] = []
    /// The identities of ``items``.
    private var seen: Set<ID> = []
    /// The lowest and highest page index loaded, `nil` before the first page.
    private(set) var pages: ClosedRange<Int>?
    /// Whether there is a page after ``pages``.
    var hasNext = false
    /// Where the page after the highest one starts: its offset plus its items (duplicates included).
    private(set) var endOffset = 0
    /// The page size the server reported last, if it decides.
    var serverPageSize: Int?
    /// The cursor to send for a page index, learnt from the page before it.
    private var cursors: [Int: String] = [:]

    /// What adding a page did.
    struct Added {
        /// Items new to the list.
        var new = 0
        /// Items the list already held.
        var duplicates = 0
    }

    /// Adds `page`'s items that the list does not hold yet, after the others or in front of them,
    /// records the page index, where it ends and the cursor it hands out, and counts new items and
    /// duplicates.
    mutating func add(
        _ page: Page<Item>, index: Int, offset: Int, inFront: Bool = false, identity: (Item) -> ID
    ) -> Added {
        var added = Added()
        var fresh: [Item] = []
        fresh.reserveCapacity(page.items.count)
        for item in page.items {
            if seen.insert(identity(item)).inserted {
                fresh.append(item)
                added.new += 1
            } else {
                added.duplicates += 1
            }
        }
        if inFront {
            items.insert(contentsOf: fresh, at: 0)
        } else {
            items.append(contentsOf: fresh)
            endOffset = offset + page.items.count
        }
        pages = pages.map { min($0.lowerBound, index)...max($0.upperBound, index) } ?? index...index
        if let cursor = page.nextCursor, !cursor.isEmpty { cursors[index + 1] = cursor }
        if let size = page.pageSize, size > 0 { serverPageSize = size }
        return added
    }

    /// The cursor to send for page `index`, if a loaded page handed one out.
    func cursor(for index: Int) -> String? {
        cursors[index]
    }
}
