public import SwitchyardJSON

extension JSONValue {
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
