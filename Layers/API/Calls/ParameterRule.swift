public import SwitchyardCore

/// Query parameters (and JSON body members) a department adds to every endpoint in its scope:
/// app version, locale, a signature input — static, or computed for each call.
///
/// ```swift
/// let rule = ParameterRule(scope: RequestScope(pathPrefixes: ["/shop"]),
///                          query: ["app_version": .constant("4.2"), "ts": .computed { String(now()) }],
///                          bodyFields: ["locale": .constant("de-DE")])
/// let api = try APIClient(client: client, baseURL: "https://api.example.com", parameters: [rule])
/// ```
///
/// A parameter the endpoint sets itself wins over a rule's; rules apply in order, the first one
/// that sets a name wins. Body members are added only to JSON object bodies.
public struct ParameterRule: Sendable {
    /// A parameter's value.
    public enum Value: Sendable {
        /// The same text on every call.
        case constant(String)
        /// Text computed for each call (when the request is built).
        case computed(@Sendable () -> String)

        var text: String {
            switch self {
            case .constant(let text): text
            case .computed(let make): make()
            }
        }
    }

    /// The requests the rule applies to.
    public var scope: RequestScope
    /// Query parameters, added in name order.
    public var query: [String: Value]
    /// Members added to JSON object bodies (as strings).
    public var bodyFields: [String: Value]

    /// Creates a rule.
    /// - Parameters:
    ///   - scope: The requests it applies to (default: all).
    ///   - query: Query parameters.
    ///   - bodyFields: JSON body members.
    public init(scope: RequestScope = .all, query: [String: Value] = [:], bodyFields: [String: Value] = [:]) {
        self.scope = scope
        self.query = query
        self.bodyFields = bodyFields
    }
}
