/// Any JSON value: decoded from a document without a model, or built to be written out.
///
/// ```swift
/// let page = try JSONDecoder().decode(JSONValue.self, from: body)
/// let line: JSONValue = .object(["ok": .bool(true), "status": .integer(200)])
/// print(line)                                  // {"ok":true,"status":200}
/// ```
///
/// Objects keep their members in the order they were built in, so written text is stable
/// (see ``JSONObject``); equality and hashing ignore that order, as JSON does.
public enum JSONValue: Sendable, Hashable {
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
    /// An object, its members in order.
    case object(JSONObject)
}
