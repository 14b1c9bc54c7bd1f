import SwitchyardCore
import SwitchyardJSON

/// Reads one page out of a decoded JSON document at a ``JSONPageLayout``'s paths.
struct JSONPageReader {
    let layout: JSONPageLayout
    /// The page's index, for error messages.
    let index: Int

    /// The page in `document`.
    /// - Throws: ``Switchyard/SwitchyardError/Kind/decoding`` naming the path that is missing or
    ///   holds the wrong type.
    func page(from document: JSONValue) throws(SwitchyardError) -> Page<JSONValue> {
        guard let list = document[path: layout.items] else {
            throw .decoding("Page \(index): \(document.explainMissing(layout.items))")
        }
        let items: [JSONValue]
        switch list {
        case .array(let elements): items = elements
        case .null: items = []
        default: throw .decoding("Page \(index): \(layout.items): expected an array of items, found \(list.summary).")
        }
        for (position, item) in items.enumerated() where item[path: layout.id] == nil {
            throw .decoding(
                "Page \(index): item \(position) of \(layout.items) has no identity: \(item.explainMissing(layout.id))")
        }
        var page = Page(items: items)
        page.hasNext = try flag(at: layout.hasNext, in: document)
        page.total = try integer(at: layout.total, in: document)
        page.pageSize = try integer(at: layout.pageSize, in: document)
        page.nextCursor = try cursor(at: layout.nextCursor, in: document)
        return page
    }

    /// The boolean at `path`; `nil` when the path is not given, leads nowhere or holds `null`.
    private func flag(at path: JSONPath?, in document: JSONValue) throws(SwitchyardError) -> Bool? {
        guard let path, let value = document[path: path] else { return nil }
        switch value {
        case .null: return nil
        case .bool(let flag): return flag
        default: throw .decoding("Page \(index): \(path): expected true or false, found \(value.summary).")
        }
    }

    /// The non-negative integer at `path` (a number, or a string of digits).
    private func integer(at path: JSONPath?, in document: JSONValue) throws(SwitchyardError) -> Int? {
        guard let path, let value = document[path: path] else { return nil }
        switch value {
        case .null: return nil
        case .integer(let number) where number >= 0: return Int(number)
        case .number(let number) where number >= 0 && number.rounded() == number && number < 1e15: return Int(number)
        case .string(let text) where Int(text).map({ $0 >= 0 }) == true: return Int(text)
        default: throw .decoding("Page \(index): \(path): expected a count, found \(value.summary).")
        }
    }

    /// The cursor at `path`: a string, or a number written as one; `nil` for `null` or nothing.
    private func cursor(at path: JSONPath?, in document: JSONValue) throws(SwitchyardError) -> String? {
        guard let path, let value = document[path: path] else { return nil }
        switch value {
        case .null: return nil
        case .string(let text): return text
        case .integer(let number): return String(number)
        default: throw .decoding("Page \(index): \(path): expected a cursor string, found \(value.summary).")
        }
    }
}
