/// A path pattern of a ``StubRoute``: literal segments, `*` for exactly one segment, `**` for any rest.
///
/// | Pattern | Matches | Does not match |
/// |---|---|---|
/// | `/users` | `/users`, `/users?page=2` | `/users/42`, `/users/` |
/// | `/users/*` | `/users/42` | `/users`, `/users/42/posts` |
/// | `/users/*/posts` | `/users/42/posts` | `/users/42/likes` |
/// | `/files/**` | `/files`, `/files/a`, `/files/a/b/c` | `/filesystem` |
/// | `/search?q=swift` | `/search?q=swift` | `/search?q=rust`, `/search` |
///
/// A pattern without `?` ignores the request's query; a pattern with `?` requires exactly that query.
/// Segments compare byte for byte (no percent-decoding, case-sensitive).
///
/// ```swift
/// let pattern: StubPathPattern = "/users/*/avatar"
/// pattern.matches(path: "/users/42/avatar?size=64")   // true
/// ```
public struct StubPathPattern: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The pattern as written, e.g. `/users/*`.
    public let description: String

    private enum Segment: Sendable, Hashable {
        case literal(Substring)
        case any
        case rest
    }

    private let segments: [Segment]
    private let query: Substring?

    /// Creates a pattern from its text.
    /// - Parameter pattern: The pattern, starting with `/`, e.g. `/users/*` or `/files/**`.
    public init(_ pattern: String) {
        self.description = pattern
        let parts = pattern.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        self.query = parts.count > 1 ? parts[1] : nil
        self.segments = Self.split(parts.first ?? "").map { text in
            switch text {
            case "*": .any
            case "**": .rest
            default: .literal(text)
            }
        }
    }

    /// Creates a pattern from a string literal.
    /// - Parameter value: The pattern text.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// Whether a request path (with or without its query) matches the pattern.
    /// - Parameter path: A request target such as `/users/42?page=2`.
    /// - Returns: `true` if the pattern matches.
    public func matches(path: String) -> Bool {
        let parts = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        if let query, query != (parts.count > 1 ? parts[1] : "") { return false }
        return Self.match(segments[...], Self.split(parts.first ?? "")[...])
    }

    // MARK: - Matching

    /// Splits `/a/b/` into `["a", "b", ""]`: a trailing slash is a (empty) segment of its own.
    private static func split(_ path: Substring) -> [Substring] {
        let trimmed = path.first == "/" ? path.dropFirst() : path
        if trimmed.isEmpty { return [] }
        return trimmed.split(separator: "/", omittingEmptySubsequences: false)
    }

    private static func match(_ pattern: ArraySlice<Segment>, _ path: ArraySlice<Substring>) -> Bool {
        guard let first = pattern.first else { return path.isEmpty }
        switch first {
        case .rest:
            // `**` takes zero or more segments; try the shortest first.
            var rest = path
            while true {
                if match(pattern.dropFirst(), rest) { return true }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        case .any:
            guard let segment = path.first, !segment.isEmpty else { return false }
            return match(pattern.dropFirst(), path.dropFirst())
        case .literal(let literal):
            guard path.first == literal else { return false }
            return match(pattern.dropFirst(), path.dropFirst())
        }
    }
}
