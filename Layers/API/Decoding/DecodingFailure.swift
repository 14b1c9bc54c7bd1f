import SwitchyardCore
import SwitchyardJSON

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns a `DecodingError` into a ``SwitchyardError/Kind/decoding`` error whose message names the
/// JSON path, the expected type and what the document holds there:
/// `data.list[3].id: expected a string, found null`.
enum DecodingFailure {
    /// The error for a failed decode of `body` (read again, on this failure path only, to say what
    /// was found).
    /// - Parameters:
    ///   - error: What the decoder threw.
    ///   - body: The document.
    ///   - model: The type being decoded, for the message.
    static func error(_ error: any Error, body: [UInt8], model: Any.Type) -> SwitchyardError {
        if let error = error as? SwitchyardError { return error }
        var field: String?
        var cause = error
        if let mapped = error as? MappedFieldError {
            field = mapped.field
            cause = mapped.underlying
        }
        guard let decodingError = cause as? DecodingError else {
            return .decoding("Could not decode \(model): \(cause)", underlyingError: error)
        }
        let document = try? JSONDecoder().decode(JSONValue.self, from: Data(body))
        var message = describe(decodingError, in: document)
        if let field { message += " (field \(field))" }
        return .decoding(message, underlyingError: error)
    }

    /// `path: expected …, found …`.
    static func describe(_ error: DecodingError, in document: JSONValue?) -> String {
        func found(at path: [any CodingKey]) -> String {
            guard let document else { return "" }
            guard let value = document[path: jsonPath(path)] else { return ", found nothing" }
            return ", found " + value.summary
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(describe(context.codingPath)): expected \(jsonName(of: type))\(found(at: context.codingPath))"
        case .valueNotFound(let type, let context):
            let value = found(at: context.codingPath)
            return "\(describe(context.codingPath)): expected \(jsonName(of: type))\(value.isEmpty ? ", found null" : value)"
        case .keyNotFound(let key, let context):
            let path = context.codingPath + [key]
            var message = "\(describe(path)): missing"
            if let document, case .object(let members)? = document[path: jsonPath(context.codingPath)] {
                let keys = members.keys.sorted().prefix(8)
                message += keys.isEmpty ? " (the object is empty)" : " (the object has: \(keys.joined(separator: ", ")))"
            }
            return message
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "$: the body is not valid JSON (\(context.debugDescription))" }
            return "\(describe(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    /// A coding path as a JSON path, e.g. `data.list[3].id`.
    static func describe(_ codingPath: [any CodingKey]) -> String {
        jsonPath(codingPath).description
    }

    static func jsonPath(_ codingPath: [any CodingKey]) -> JSONPath {
        JSONPath(
            segments: codingPath.map { key in
                if let index = key.intValue { return .index(index) }
                return .key(key.stringValue)
            })
    }

    /// `a string`, `a number`, `a boolean`, `an array`, `an object`.
    static func jsonName(of type: Any.Type) -> String {
        let unwrapped = (type as? any OptionalProtocol.Type)?.wrappedType ?? type
        switch unwrapped {
        case is String.Type, is Substring.Type, is Character.Type: return "a string"
        case is Bool.Type: return "a boolean"
        case is any BinaryInteger.Type: return "an integer"
        case is any BinaryFloatingPoint.Type, is Decimal.Type: return "a number"
        case is any DecodableArray.Type: return "an array"
        case is JSONValue.Type: return "a JSON value"
        default:
            let name = String(describing: unwrapped)
            if name.hasPrefix("Dictionary<") || name.hasPrefix("KeyedDecodingContainer<") { return "an object" }
            if name.contains("UnkeyedDecodingContainer") { return "an array" }
            if unwrapped == Any.self { return "a value" }
            return "an object (\(unwrapped))"
        }
    }
}

/// A mapped field's decode failed: carries the field's name to the message.
@usableFromInline
struct MappedFieldError: Error {
    let field: String
    let underlying: any Error

    @usableFromInline
    init(field: String, underlying: any Error) {
        self.field = field
        self.underlying = underlying
    }
}

/// Lets a type name look through `Optional`.
@usableFromInline
protocol OptionalProtocol {
    static var wrappedType: Any.Type { get }
    /// `nil` of this optional type.
    static var nilValue: Any { get }
}

extension Optional: OptionalProtocol {
    @usableFromInline static var wrappedType: Any.Type { Wrapped.self }
    @usableFromInline static var nilValue: Any { Optional<Wrapped>.none as Any }
}
