import NIOCore

/// The `/pages/{key}` routes: a paged JSON list whose server inserts new items at the top between
/// page loads, so consecutive pages overlap the way they do on a live feed.
///
/// The list holds `total` original items with ids `1…total` (titles `Item n`); before each page
/// that does not start at offset 0 is served, `insert` new items (ids `total+1`, `total+2`, …,
/// newest first, titles `New item n`) are added at its top. Pages are slices of the list as it is
/// when they are served; with `insert=k` each page after the first repeats `k` items of the page
/// before, and a forward walk still sees every original item exactly once.
///
/// Query parameters (all optional):
/// - `page` (default `first`), `first` (default 1): the page number and the first page's number;
///   `offset=N` instead of `page` asks for the items from `N`; with `style=cursor`, `cursor=oN` does.
/// - `size` (default 10, 1…1000) items per page; `server_size=N` makes the server use `N` instead and
///   report it as `page_size`.
/// - `style`: `flag` (default; `has_next`), `total` (`total`, the list's current length), `short`
///   (neither: a short page is the last) or `cursor` (`next_cursor`, `null` on the last page).
/// - `total` (default 95, ≤ 100000) original items; `insert` (default 0, ≤ 1000) new items per page.
/// - `max_age=N`: pages carry `Cache-Control: max-age=N`.
/// - `fail=N`: the first request for page `N` gets 500; `hold=N`: the first request for page `N` is
///   never answered and its connection is tracked under the tag `pages-{key}-held`.
///
/// Body: `{"data":{"items":[{"id":1,"title":"Item 1"},…],"page":N,<style's field>}}`.
enum PagedListRoute {
    /// Largest `total` and `insert`, to keep typos from exhausting memory.
    static let maxTotal = 100_000

    /// The action for `/pages/{key}`, `/pages/{key}/empty` (an empty list) or `/pages/{key}/no-content` (204).
    static func action(_ parts: [Substring], _ target: RequestTarget, state: ServerState) -> RouteAction {
        let key = String(parts[1])
        if parts.count == 3 {
            switch parts[2] {
            case "empty":
                _ = state.pagedLists.request(key: key, page: 0, isFirst: true, fail: nil, hold: nil, insert: 0)
                return json(#"{"data":{"items":[],"has_next":false,"total":0}}"#)
            case "no-content":
                _ = state.pagedLists.request(key: key, page: 0, isFirst: true, fail: nil, hold: nil, insert: 0)
                return .respond(ResponseHead(status: 204), body: ByteBuffer())
            default: return Router.notFound
            }
        }
        guard let query = Query(target) else { return Router.badRequest }
        let decision = state.pagedLists.request(
            key: key, page: query.page, isFirst: query.offset == 0, fail: query.fail, hold: query.hold,
            insert: query.insert)
        switch decision {
        case .fail: return .text(500, "page \(query.page) failed (first request)\n")
        case .hold: return .stallTracked(tag: "pages-\(key)-held")
        case .serve(let inserted):
            let freshness = query.maxAge.map { [(name: "Cache-Control", value: "max-age=\($0)")] } ?? []
            return json(body(query, inserted: inserted), headers: freshness)
        }
    }

    private static func json(_ text: String, headers: [(name: String, value: String)] = []) -> RouteAction {
        .text(200, text, contentType: "application/json", headers: headers)
    }

    /// The page's JSON, from the list as it is with `inserted` new items at its top.
    private static func body(_ query: Query, inserted: Int) -> String {
        let length = query.total + inserted
        let end = min(query.offset + query.size, length)
        var items: [String] = []
        if query.offset < end {
            items.reserveCapacity(end - query.offset)
            for position in query.offset..<end {
                // Newest insertion first: position 0 is the last one inserted.
                if position < inserted {
                    let id = query.total + inserted - position
                    items.append(#"{"id":\#(id),"title":"New item \#(id)"}"#)
                } else {
                    let id = position - inserted + 1
                    items.append(#"{"id":\#(id),"title":"Item \#(id)"}"#)
                }
            }
        }
        var fields = [#""items":[\#(items.joined(separator: ","))]"#, #""page":\#(query.page)"#]
        switch query.style {
        case .flag: fields.append(#""has_next":\#(end < length)"#)
        case .total: fields.append(#""total":\#(length)"#)
        case .short: break
        case .cursor: fields.append(end < length ? #""next_cursor":"o\#(end)""# : #""next_cursor":null"#)
        }
        if query.serverSize != nil { fields.append(#""page_size":\#(query.size)"#) }
        return #"{"data":{\#(fields.joined(separator: ","))}}"#
    }

    /// How the list says whether a next page exists.
    private enum Style: String {
        case flag, total, short, cursor
    }

    /// The parsed query of one page request.
    private struct Query {
        var page: Int
        var offset: Int
        var size: Int
        var serverSize: Int?
        var style: Style
        var total: Int
        var insert: Int
        var fail: Int?
        var hold: Int?
        var maxAge: Int?

        init?(_ target: RequestTarget) {
            guard let first = Self.integer(target, "first", default: 1),
                let requested = Self.integer(target, "size", default: 10), (1...1000).contains(requested),
                let style = Style(rawValue: target.value("style") ?? "flag"),
                let total = Self.integer(target, "total", default: 95), total <= PagedListRoute.maxTotal,
                let insert = Self.integer(target, "insert", default: 0), insert <= 1000
            else { return nil }
            var size = requested
            if target.value("server_size") != nil {
                guard let decided = Self.integer(target, "server_size", default: 10), (1...1000).contains(decided)
                else { return nil }
                serverSize = decided
                size = decided
            }
            if style == .cursor, let cursor = target.value("cursor") {
                guard cursor.first == "o", let value = Int(cursor.dropFirst()), value >= 0 else { return nil }
                offset = value
                page = first + value / size
            } else if target.value("offset") != nil {
                guard let value = Self.integer(target, "offset", default: 0) else { return nil }
                offset = value
                page = first + value / size
            } else {
                guard let number = Self.integer(target, "page", default: first), number >= first else { return nil }
                page = number
                offset = (number - first) * size
            }
            guard offset <= PagedListRoute.maxTotal * 100 else { return nil }
            self.size = size
            self.style = style
            self.total = total
            self.insert = insert
            if target.value("fail") != nil {
                guard let value = Self.integer(target, "fail", default: 0) else { return nil }
                fail = value
            }
            if target.value("hold") != nil {
                guard let value = Self.integer(target, "hold", default: 0) else { return nil }
                hold = value
            }
            if target.value("max_age") != nil {
                guard let value = Self.integer(target, "max_age", default: 0) else { return nil }
                maxAge = value
            }
        }

        /// A non-negative integer query value (≤ 10⁹), `fallback` when absent, `nil` when invalid.
        private static func integer(_ target: RequestTarget, _ name: String, default fallback: Int) -> Int? {
            guard let text = target.value(name) else { return fallback }
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let value = Int(text), value <= 1_000_000_000
            else { return nil }
            return value
        }
    }
}
