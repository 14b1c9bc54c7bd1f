public import SwitchyardCore

/// A group of header rules owned by one department (or plugin) and applied only in its scope.
///
/// ```swift
/// let catalog = HeaderRules(owner: "catalog", scope: RequestScope(hosts: ["api.shop.com"], pathPrefixes: ["/catalog"]),
///                           rules: [.set("X-Department", "catalog"), .set("X-Catalog-Version", "7")])
/// var configuration = ClientConfiguration()
/// configuration.headers = [catalog]
/// ```
///
/// ### Which rule wins
///
/// Groups whose scope matches a request apply from the least to the most specific scope, so when
/// two groups `set` the same field, the more specific one is applied last and wins. Specificity
/// counts, in order: a concrete host over a `*.` host pattern over any host; then the longest path
/// prefix (in segments); then the number of tags. Groups of equal specificity apply in registration
/// order. ``HeaderConflict/find(in:)`` reports every such overlap before it can surprise anyone.
public struct HeaderRules: Sendable {
    /// Who owns the rules (a department or plugin name), for conflict reports and errors.
    public let owner: String
    /// The requests the rules apply to.
    public let scope: RequestScope
    /// The rules, applied in order.
    public let rules: [HeaderRule]

    /// Creates a group.
    /// - Parameters:
    ///   - owner: Who owns the rules.
    ///   - scope: The requests they apply to (default: all).
    ///   - rules: The rules, applied in order.
    public init(owner: String, scope: RequestScope = .all, rules: [HeaderRule]) {
        self.owner = owner
        self.scope = scope
        self.rules = rules
    }
}

extension RequestScope {
    /// How specific the scope is, compared lexicographically: host (2 concrete, 1 pattern, 0 any),
    /// the longest path prefix in segments, then the number of tags.
    var specificity: [Int] {
        let host = hosts.isEmpty ? 0 : (hosts.contains { !$0.hasPrefix("*.") } ? 2 : 1)
        let path = pathPrefixes.map { $0.split(separator: "/").count }.max() ?? 0
        return [host, path, tags.count]
    }

    /// Whether some request could be in both scopes (`false` only when that is provably impossible).
    func overlaps(_ other: RequestScope) -> Bool {
        if !tags.isEmpty, !other.tags.isEmpty, tags.isDisjoint(with: other.tags) { return false }
        if !hosts.isEmpty, !other.hosts.isEmpty {
            let concrete = hosts.filter { !$0.hasPrefix("*.") }
            let otherConcrete = other.hosts.filter { !$0.hasPrefix("*.") }
            let onlyConcrete = concrete.count == hosts.count && otherConcrete.count == other.hosts.count
            if onlyConcrete, concrete.isDisjoint(with: otherConcrete) { return false }
        }
        if !pathPrefixes.isEmpty, !other.pathPrefixes.isEmpty {
            let related = pathPrefixes.contains { mine in
                other.pathPrefixes.contains { theirs in Self.isPrefix(mine, of: theirs) || Self.isPrefix(theirs, of: mine) }
            }
            if !related { return false }
        }
        return true
    }

    private static func isPrefix(_ prefix: String, of path: String) -> Bool {
        path == prefix || prefix == "/" || path.hasPrefix(prefix.hasSuffix("/") ? prefix : prefix + "/")
    }
}
