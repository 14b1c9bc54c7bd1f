/// The media types an endpoint accepts in responses, e.g. JSON: `application/json` and any
/// `…+json` type. A response with another content type fails with
/// `SwitchyardError.Kind.unexpectedContentType` (naming what came) before any decoding.
public struct MediaTypeSet: Sendable, Hashable, CustomStringConvertible {
    /// Accepted types (`type/subtype`, lower-cased); `*/*` accepts anything.
    public var types: Set<String>
    /// Accepted structured-syntax suffixes, e.g. `json` for `application/problem+json`.
    public var suffixes: Set<String>
    /// Whether a response without `Content-Type` is accepted.
    public var acceptsMissing: Bool

    /// JSON: `application/json` and `*/*+json`; a missing content type is accepted.
    public static let json = MediaTypeSet(types: ["application/json"], suffixes: ["json"])
    /// Anything.
    public static let any = MediaTypeSet(types: ["*/*"])

    /// Creates a set.
    /// - Parameters:
    ///   - types: Accepted `type/subtype` values.
    ///   - suffixes: Accepted `+suffix` values.
    ///   - acceptsMissing: Whether a missing `Content-Type` is accepted.
    public init(types: Set<String>, suffixes: Set<String> = [], acceptsMissing: Bool = true) {
        self.types = Set(types.map { $0.lowercased() })
        self.suffixes = Set(suffixes.map { $0.lowercased() })
        self.acceptsMissing = acceptsMissing
    }

    /// Whether a `Content-Type` value (parameters allowed) is accepted.
    /// - Parameter contentType: The field's value, or `nil` when absent.
    /// - Returns: `true` when accepted.
    public func accepts(_ contentType: String?) -> Bool {
        guard let contentType else { return acceptsMissing }
        if types.contains("*/*") { return true }
        let essence = Self.essence(of: contentType)
        if types.contains(essence) { return true }
        if let plus = essence.lastIndex(of: "+"), suffixes.contains(String(essence[essence.index(after: plus)...])) { return true }
        if let slash = essence.firstIndex(of: "/"), types.contains(essence[..<slash] + "/*") { return true }
        return false
    }

    /// `text/html; charset=utf-8` → `text/html`.
    static func essence(of contentType: String) -> String {
        let head = contentType.prefix { $0 != ";" }
        let trimmed = head.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
        return String(trimmed).lowercased()
    }

    /// The value for an `Accept` header, e.g. `application/json`.
    public var acceptHeader: String {
        types.contains("*/*") ? "*/*" : types.sorted().joined(separator: ", ")
    }

    /// E.g. `application/json or +json`.
    public var description: String {
        (types.sorted() + suffixes.sorted().map { "+" + $0 }).joined(separator: " or ")
    }
}
