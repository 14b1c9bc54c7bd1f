/// A path into a JSON document: `data.list`, `data.list[3].id`, `info.book.authors[*].name`.
///
/// Segments are object keys separated by dots, array indices in brackets, and `[*]` for "every
/// element". A key that holds a dot or a bracket is written quoted: `meta["x.y"]`. The empty path
/// (`""`) is the document itself.
///
/// ```swift
/// let path: JSONPath = "data.list[0].id"
/// print(path.segments)   // [.key("data"), .key("list"), .index(0), .key("id")]
/// ```
public struct JSONPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// One step of a path.
    public enum Segment: Sendable, Hashable {
        /// An object member.
        case key(String)
        /// An array element, 0-based.
        case index(Int)
        /// Every element of an array.
        case each
    }

    /// The steps, from the document's root.
    public let segments: [Segment]

    /// Creates a path from its steps.
    /// - Parameter segments: The steps, from the root.
    public init(segments: [Segment]) {
        self.segments = segments
    }

    /// Parses a path written as `a.b[2].c`, `a[*].b` or `a["x.y"]`.
    /// - Parameter text: The path.
    /// - Throws: ``JSONPathSyntaxError`` naming the offending position.
    public init(parsing text: String) throws(JSONPathSyntaxError) {
        var parser = JSONPathParser(text)
        self.segments = try parser.parse()
    }

    /// Parses a literal path; a malformed literal is a programming error and stops the program.
    /// - Parameter value: The path.
    public init(stringLiteral value: String) {
        do {
            try self.init(parsing: value)
        } catch {
            preconditionFailure("Invalid JSON path literal: \(error)")
        }
    }

    /// The path written back in its dotted form, e.g. `data.list[3].id`; the root is `$`.
    public var description: String { Self.describe(segments[...]) }

    /// Whether the path has a `[*]` step.
    public var hasWildcard: Bool { segments.contains(.each) }

    /// This path followed by `other`.
    /// - Parameter other: The path to append.
    /// - Returns: The joined path.
    public func appending(_ other: JSONPath) -> JSONPath {
        JSONPath(segments: segments + other.segments)
    }

    /// The dotted form of some steps (`$` when there are none).
    static func describe(_ segments: ArraySlice<Segment>) -> String {
        var text = ""
        for segment in segments {
            switch segment {
            case .key(let key):
                if key.contains(where: { $0 == "." || $0 == "[" || $0 == "]" || $0 == "\"" }) || key.isEmpty {
                    text += "[\"" + key.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\\\"") + "\"]"
                } else {
                    if !text.isEmpty { text += "." }
                    text += key
                }
            case .index(let index): text += "[\(index)]"
            case .each: text += "[*]"
            }
        }
        return text.isEmpty ? "$" : text
    }
}

/// A JSON path that could not be parsed.
public struct JSONPathSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path as written.
    public let path: String
    /// The character offset of the problem.
    public let offset: Int
    /// What is wrong.
    public let reason: String

    /// E.g. `invalid JSON path 'a..b' at 2: empty key`.
    public var description: String { "invalid JSON path '\(path)' at \(offset): \(reason)" }
}

/// Reads `a.b[2]["x.y"][*]`.
private struct JSONPathParser {
    let text: String
    let characters: [Character]
    var position = 0

    init(_ text: String) {
        self.text = text
        self.characters = Array(text)
    }

    mutating func parse() throws(JSONPathSyntaxError) -> [JSONPath.Segment] {
        var segments: [JSONPath.Segment] = []
        if characters == ["$"] || characters.isEmpty { return [] }
        if characters.first == "$" {
            position = 1
            if peek == "." { position += 1 }
        }
        var expectKey = peek != "["
        while position < characters.count {
            if expectKey {
                segments.append(.key(try bareKey()))
            }
            guard let next = peek else { break }
            switch next {
            case ".":
                position += 1
                guard position < characters.count else { throw failure("the path ends after a dot") }
                expectKey = peek != "["
                if !expectKey { throw failure("a dot must be followed by a key") }
            case "[":
                segments.append(try bracket())
                expectKey = false
            default:
                throw failure("expected '.' or '['")
            }
        }
        return segments
    }

    var peek: Character? { position < characters.count ? characters[position] : nil }

    mutating func bareKey() throws(JSONPathSyntaxError) -> String {
        let start = position
        while let character = peek, character != ".", character != "[" {
            if character == "]" || character == "\"" { throw failure("unexpected '\(character)' in a key") }
            position += 1
        }
        guard position > start else { throw failure("empty key") }
        return String(characters[start..<position])
    }

    mutating func bracket() throws(JSONPathSyntaxError) -> JSONPath.Segment {
        position += 1  // [
        guard let first = peek else { throw failure("unclosed '['") }
        let segment: JSONPath.Segment
        if first == "*" {
            position += 1
            segment = .each
        } else if first == "\"" {
            position += 1
            var key = ""
            while true {
                guard let character = peek else { throw failure("unclosed quoted key") }
                position += 1
                if character == "\\", let escaped = peek {
                    key.append(escaped)
                    position += 1
                    continue
                }
                if character == "\"" { break }
                key.append(character)
            }
            segment = .key(key)
        } else {
            let start = position
            while let character = peek, character.isASCII, character.isNumber { position += 1 }
            guard position > start, let index = Int(String(characters[start..<position])) else {
                throw failure("expected an index, '*' or a quoted key inside brackets")
            }
            segment = .index(index)
        }
        guard peek == "]" else { throw failure("expected ']'") }
        position += 1
        return segment
    }

    func failure(_ reason: String) -> JSONPathSyntaxError {
        JSONPathSyntaxError(path: text, offset: position, reason: reason)
    }
}
