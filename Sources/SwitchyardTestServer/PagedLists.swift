import NIOConcurrencyHelpers

/// Per-key state of the `/pages/{key}` routes: items inserted so far, pages that already failed or
/// stalled once, and every page asked for, so that parallel tests using different keys never meet.
///
/// Thread-safe; shared by every connection of one server.
final class PagedLists: Sendable {
    /// What the route should do with one page request.
    enum Decision: Equatable {
        /// Answer 500 (the page's first request, with `fail=` naming it).
        case fail
        /// Never answer (the page's first request, with `hold=` naming it).
        case hold
        /// Serve the page from a list that has `inserted` new items at its top.
        case serve(inserted: Int)
    }

    private struct List {
        var inserted = 0
        var failed: Set<Int> = []
        var held: Set<Int> = []
        var requests: [Int] = []
    }

    private let lists = NIOLockedValueBox<[String: List]>([:])

    /// Records a request for page `page` of `key` and decides how to answer it, atomically.
    ///
    /// - Parameters:
    ///   - key: The list's key.
    ///   - page: The page number as the client asked for it.
    ///   - isFirst: Whether the page starts at offset 0; later pages first get `insert` new items.
    ///   - fail: The page that fails its first request, if any.
    ///   - hold: The page whose first request is never answered, if any.
    ///   - insert: Items inserted at the top before each later page is served.
    /// - Returns: The decision.
    func request(key: String, page: Int, isFirst: Bool, fail: Int?, hold: Int?, insert: Int) -> Decision {
        lists.withLockedValue { lists in
            var list = lists[key] ?? List()
            defer { lists[key] = list }
            list.requests.append(page)
            if page == fail, list.failed.insert(page).inserted { return .fail }
            if page == hold, list.held.insert(page).inserted { return .hold }
            if !isFirst { list.inserted += insert }
            return .serve(inserted: list.inserted)
        }
    }

    /// Every page number requested for `key`, in arrival order (failed and held ones included).
    func requests(key: String) -> [Int] {
        lists.withLockedValue { $0[key]?.requests ?? [] }
    }
}
