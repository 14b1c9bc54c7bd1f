/// A model filled from JSON by declaring which JSON path feeds which property, for models that do
/// not mirror the JSON, with no hand-written `init(from:)`.
///
/// ```swift
/// struct Book: JSONMapped {
///     var title = ""
///     var authors: [String] = []
///     var price = 0.0
///     var subtitle: String?
///
///     static let jsonMapping = JSONMapping<Book>(
///         .field(\.title, "info.book.title"),
///         .field(\.authors, "info.book.authors[*].name"),
///         .field(\.price, "price.amount"),
///         .field(\.subtitle, "info.book.subtitle"))    // optional: absent or null → nil
/// }
///
/// let book = try JSONDecoder().decode(Book.self, from: data)
/// ```
///
/// A mapped model is `Decodable`, so it nests: `[Book]` decodes a list, and a mapped property can
/// itself be a mapped model. Failures name the JSON path, the property and what was found:
/// `price.amount: expected a number, found a string "12" (field Book.price)`.
public protocol JSONMapped: Decodable {
    /// An instance with every property at its default, which the mapping then fills.
    init()
    /// Which JSON path feeds which property; built once (a `static let`).
    static var jsonMapping: JSONMapping<Self> { get }
}

extension JSONMapped {
    /// Decodes the model through ``jsonMapping``.
    /// - Parameter decoder: The decoder positioned at the model's JSON object.
    public init(from decoder: any Decoder) throws {
        self.init()
        try Self.jsonMapping.decode(into: &self, from: decoder)
    }
}
