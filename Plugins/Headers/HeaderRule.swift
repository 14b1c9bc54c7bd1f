import HTTPTypes
public import SwitchyardCore

/// One operation on one header field: set it, append a value, or remove it.
///
/// Values are static or computed per request by a provider (sync or async). Computed values are
/// validated: a value with CR, LF or NUL fails the call with ``SwitchyardError/Kind/invalidRequest``
/// instead of being sent, and a provider that throws fails the call naming the header.
///
/// ```swift
/// let rules: [HeaderRule] = [
///     .set("X-Client", "shop-ios/5.2"),
///     .set("X-Request-ID") { _, context in "req-\(context.id)" },
///     .set("Authorization") { _, _ in "Bearer \(try await tokens.current())" },
///     .append("Accept-Language", "en;q=0.8"),
///     .remove("X-Debug"),
/// ]
/// ```
public struct HeaderRule: Sendable {
    /// What the rule does to its field.
    public enum Operation: String, Sendable, Hashable {
        /// Replace every value of the field with one value.
        case set
        /// Add a value after the existing ones.
        case append
        /// Remove the field if present.
        case remove
    }

    /// Computes a value for a request.
    public typealias Provider = @Sendable (Request, ExchangeContext) async throws -> String

    /// The field name as written.
    public let name: String
    /// What the rule does.
    public let operation: Operation
    private let provider: Provider?
    /// The parsed field name, or `nil` when `name` is not a valid one (the rule then fails the call).
    private let fieldName: HTTPField.Name?
    /// A static value checked once, here, rather than on every request; `nil` for computed values
    /// and for a static value that is not a valid field value (checked, and refused, per request).
    private let checkedValue: String?

    /// The field name in lower case, for comparisons.
    var canonicalName: String { name.lowercased() }

    private init(_ name: String, _ operation: Operation, _ provider: Provider?, staticValue: String? = nil) {
        self.name = name
        self.operation = operation
        self.provider = provider
        self.fieldName = HTTPField.Name(name)
        self.checkedValue = staticValue.flatMap { HTTPField.isValidValue($0) ? $0 : nil }
    }

    /// Replaces the field's values with `value`.
    /// - Parameters:
    ///   - name: The field name (an invalid name fails the calls it applies to with `invalidRequest`).
    ///   - value: The value.
    /// - Returns: The rule.
    public static func set(_ name: String, _ value: String) -> HeaderRule {
        HeaderRule(name, .set, { _, _ in value }, staticValue: value)
    }

    /// Replaces the field's values with a computed value.
    /// - Parameters:
    ///   - name: The field name.
    ///   - provider: Computes the value per request (may be async and may throw).
    /// - Returns: The rule.
    public static func set(_ name: String, provider: @escaping Provider) -> HeaderRule {
        HeaderRule(name, .set, provider)
    }

    /// Adds `value` after the field's existing values.
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The value.
    /// - Returns: The rule.
    public static func append(_ name: String, _ value: String) -> HeaderRule {
        HeaderRule(name, .append, { _, _ in value }, staticValue: value)
    }

    /// Adds a computed value after the field's existing values.
    /// - Parameters:
    ///   - name: The field name.
    ///   - provider: Computes the value per request.
    /// - Returns: The rule.
    public static func append(_ name: String, provider: @escaping Provider) -> HeaderRule {
        HeaderRule(name, .append, provider)
    }

    /// Removes the field if the request has it.
    /// - Parameter name: The field name.
    /// - Returns: The rule.
    public static func remove(_ name: String) -> HeaderRule {
        HeaderRule(name, .remove, nil)
    }

    /// Applies the rule to `fields`.
    /// - Throws: ``SwitchyardError/Kind/invalidRequest`` when the provider fails or its value is not
    ///   a valid field value.
    func apply(to fields: inout HTTPFields, request: Request, context: ExchangeContext, owner: String) async throws {
        guard let fieldName else {
            throw SwitchyardError.invalidRequest(
                "The header rule of '\(owner)' names '\(name)', which is not a valid"
                    + " header name: use letters, digits and !#$%&'*+-.^_`|~ only.")
        }
        guard let provider else {
            fields[fieldName] = nil
            return
        }
        if let checkedValue {
            if operation == .append {
                fields.append(HTTPField(name: fieldName, value: checkedValue))
            } else {
                fields[fieldName] = checkedValue
            }
            return
        }
        let value: String
        do {
            value = try await provider(request, context)
        } catch {
            throw SwitchyardError(
                .invalidRequest,
                "The header rule of '\(owner)' for \(name) could not compute"
                    + " its value: \(error)", underlyingError: error)
        }
        let field = try HTTPField.validated(name: name, value: value)
        switch operation {
        case .set: fields[fieldName] = field.value
        case .append: fields.append(field)
        case .remove: fields[fieldName] = nil
        }
    }
}
