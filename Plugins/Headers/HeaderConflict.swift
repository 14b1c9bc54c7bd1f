public import SwitchyardCore

/// Two owners' header rules that touch the same field for requests both could match.
///
/// ```swift
/// for conflict in client.headerConflicts { logger.warning("\(conflict)") }
/// // "X-Client: 'catalog' (paths=/catalog) and 'app' (all) both set it; 'catalog' wins where both apply"
/// ```
public struct HeaderConflict: Sendable, Hashable, CustomStringConvertible {
    /// The field, in lower case.
    public let field: String
    /// The owner whose rule applies first.
    public let first: String
    /// The owner whose rule applies last, and so wins a `set` or `remove`.
    public let winner: String
    /// The scopes of `first` and `winner`.
    public let scopes: [RequestScope]

    /// E.g. `x-client: 'app' (all) and 'catalog' (paths=/catalog) both change it; 'catalog' wins where both apply`.
    public var description: String {
        "\(field): '\(first)' (\(scopes[0])) and '\(winner)' (\(scopes[1])) both change it; '\(winner)' wins where both apply"
    }

    /// Every pair of groups, with different owners and overlapping scopes, in which both set or
    /// remove the same field (appending is not a conflict: both values are sent).
    /// - Parameter groups: The groups, in registration order.
    /// - Returns: The conflicts, in application order.
    public static func find(in groups: [HeaderRules]) -> [HeaderConflict] {
        let ordered = HeadersInterceptor.applicationOrder(of: groups)
        var conflicts: [HeaderConflict] = []
        for (index, earlier) in ordered.enumerated() {
            for later in ordered[(index + 1)...] where later.owner != earlier.owner && earlier.scope.overlaps(later.scope) {
                let fields = Set(earlier.rules.filter { $0.operation != .append }.map(\.canonicalName))
                    .intersection(later.rules.filter { $0.operation != .append }.map(\.canonicalName))
                for field in fields.sorted() {
                    conflicts.append(
                        HeaderConflict(
                            field: field, first: earlier.owner, winner: later.owner,
                            scopes: [earlier.scope, later.scope]))
                }
            }
        }
        return conflicts
    }
}
