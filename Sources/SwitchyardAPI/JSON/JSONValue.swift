/// Any JSON value, for documents without a model: `yard pages` walks lists of these, and tests and
/// samples build bodies from them.
///
/// ```swift
/// let page = try JSONDecoder().decode(JSONValue.self, from: body)
/// let ids = page[path: "data.list[*].id"]     // .array([.integer(1), .integer(2), …])
/// ```
public enum JSONValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without fraction or exponent that fits 64 bits.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object (member order is not kept).
    case object([String: JSONValue])

    /// Decodes any JSON value.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as JSON.
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value at `path`, or `nil` where the path leads nowhere; a `[*]` step collects one
    /// result per element into an array.
    public subscript(path path: JSONPath) -> JSONValue? {
        value(at: path.segments[...])
    }

    private func value(at segments: ArraySlice<JSONPath.Segment>) -> JSONValue? {
        guard let first = segments.first else { return self }
        let rest = segments.dropFirst()
        switch (first, self) {
        case (.key(let key), .object(let members)): return members[key]?.value(at: rest)
        case (.index(let index), .array(let elements)):
            return elements.indices.contains(index) ? elements[index].value(at: rest) : nil
        case (.each, .array(let elements)):
            var results: [JSONValue] = []
            results.reserveCapacity(elements.count)
            for element in elements {
                guard let result = element.value(at: rest) else { return nil }
                results.append(result)
            }
            return .array(results)
        default: return nil
        }
    }

    /// What a reader should be told was found: `null`, `the number 42`, `a string "abc"`,
    /// `an array of 3`, `an object`, `true`.
    public var summary: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .integer(let value): return "the number \(value)"
        case .number(let value): return "the number \(value)"
        case .string(let value):
            let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
            return "a string \"\(shown)\""
        case .array(let elements): return "an array of \(elements.count)"
        case .object: return "an object"
        }
    }

    /// The value written as compact JSON (object members sorted by key).
    public var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .number(let value): return String(value)
        case .string(let value): return Self.quoted(value)
        case .array(let elements): return "[" + elements.map(\.description).joined(separator: ",") + "]"
        case .object(let members):
            return "{"
                + members.sorted { $0.key < $1.key }
                .map { Self.quoted($0.key) + ":" + $0.value.description }.joined(separator: ",") + "}"
        }
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Whether this is `null`, an empty array or an empty object: a value a screen shows as "no data".
    public var isEmptyValue: Bool {
        switch self {
        case .null: return true
        case .array(let elements): return elements.isEmpty
        case .object(let members): return members.isEmpty
        default: return false
        }
    }
}
