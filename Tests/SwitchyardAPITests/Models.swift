import SwitchyardAPI

/// A book as the app wants it, fed from JSON that does not mirror it.
struct Book: JSONMapped, Equatable {
    var title = ""
    var authors: [String] = []
    var price = 0.0
    var subtitle: String?
    var pages = 0
    var tags: [Tag] = []

    static let jsonMapping = JSONMapping<Book>(
        .field(\.title, "info.book.title"),
        .field(\.authors, "info.book.authors[*].name"),
        .field(\.price, "price.amount"),
        .field(\.subtitle, "info.book.subtitle"),
        .field(\.pages, "info.book.pages", default: -1),
        .field(\.tags, "meta.tags", default: []))
}

/// A nested mapped model.
struct Tag: JSONMapped, Equatable {
    var label = ""
    static let jsonMapping = JSONMapping<Tag>(.field(\.label, "l"))
}

/// A plain `Decodable` item.
struct Item: Codable, Equatable, Sendable {
    var id: String
    var title: String
}

let bookJSON = #"""
    {"info": {"book": {"title": "Dune", "authors": [{"name": "Frank Herbert"}, {"name": "Brian Herbert"}], "pages": 412}},
     "price": {"amount": 9.5, "currency": "EUR"},
     "meta": {"tags": [{"l": "sf"}, {"l": "classic"}]}}
    """#
