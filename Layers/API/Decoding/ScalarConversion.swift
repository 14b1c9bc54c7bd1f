import SwitchyardCore
import SwitchyardJSON

/// The conversions a lenient field makes between JSON scalars: number ↔ string, and `true`/`false`,
/// `1`/`0`, `"true"`/`"false"`, `"yes"`/`"no"`, `"1"`/`"0"` as Bool.
@usableFromInline
enum ScalarConversion {
    /// `json` as `Value` (a String, Int, Double or Bool, or an optional of one), or `nil` when no
    /// conversion applies.
    @usableFromInline
    static func convert<Value>(_ json: JSONValue, to type: Value.Type) -> Value? {
        let converted: Any?
        switch type {
        case is String.Type, is String?.Type: converted = string(json)
        case is Int.Type, is Int?.Type: converted = int(json)
        case is Double.Type, is Double?.Type: converted = double(json)
        case is Bool.Type, is Bool?.Type: converted = bool(json)
        default: converted = nil
        }
        return converted as? Value
    }

    /// The property type's name for the report (`Int` for `Int?`).
    @usableFromInline
    static func name(of type: Any.Type) -> String {
        let name = "\(type)"
        return name.hasPrefix("Optional<") ? String(name.dropFirst("Optional<".count).dropLast()) : name
    }

    private static func string(_ json: JSONValue) -> String? {
        switch json {
        case .integer(let value): return String(value)
        case .number(let value): return value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .bool(let value): return value ? "true" : "false"
        default: return nil
        }
    }

    private static func int(_ json: JSONValue) -> Int? {
        switch json {
        case .string(let text): return Int(text.trimmingSpaces())
        case .number(let value): return Int(exactly: value)
        case .bool(let value): return value ? 1 : 0
        default: return nil
        }
    }

    private static func double(_ json: JSONValue) -> Double? {
        switch json {
        case .string(let text): return Double(text.trimmingSpaces())
        case .integer(let value): return Double(value)
        default: return nil
        }
    }

    private static func bool(_ json: JSONValue) -> Bool? {
        switch json {
        case .integer(0): return false
        case .integer(1): return true
        case .number(let value) where value == 0 || value == 1: return value == 1
        case .string(let text):
            switch text.trimmingSpaces().lowercased() {
            case "true", "yes", "1": return true
            case "false", "no", "0": return false
            default: return nil
            }
        default: return nil
        }
    }
}
