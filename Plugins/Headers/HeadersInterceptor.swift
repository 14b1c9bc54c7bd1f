import HTTPTypes
public import SwitchyardCore

/// Applies scoped header rules to each request (see ``HeaderRules`` for which rule wins).
///
/// ```swift
/// let headers = HeadersInterceptor(groups: [
///     HeaderRules(owner: "app", rules: [.set("X-Client", "shop-ios/5.2")]),
///     HeaderRules(owner: "payments", scope: RequestScope(pathPrefixes: ["/payments"]),
///                 rules: [.set("X-Department", "payments")]),
/// ])
/// ```
///
/// In an assembled client the app's rules (``SwitchyardCore/ClientConfiguration/headers``) are one in the
/// `appDefaults` stage, and a plugin made with header rules runs its own first.
public struct HeadersInterceptor: Interceptor {
    /// The groups in the order they apply (least specific scope first).
    public let groups: [HeaderRules]

    /// Creates the interceptor.
    /// - Parameter groups: The rule groups, in registration order.
    public init(groups: [HeaderRules]) {
        self.groups = Self.applicationOrder(of: groups)
    }

    /// Applies the groups whose scope matches and passes the request on.
    public nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        var request = request
        var fields = request.head.headerFields
        for group in groups where group.scope.matches(request) {
            for rule in group.rules {
                try await rule.apply(to: &fields, request: request, context: context, owner: group.owner)
            }
        }
        request.head.headerFields = fields
        return try await next(request)
    }

    /// Least specific scope first; ties keep registration order.
    static func applicationOrder(of groups: [HeaderRules]) -> [HeaderRules] {
        groups.enumerated().sorted { lhs, rhs in
            let (left, right) = (lhs.element.scope.specificity, rhs.element.scope.specificity)
            return left == right ? lhs.offset < rhs.offset : left.lexicographicallyPrecedes(right)
        }.map(\.element)
    }
}
