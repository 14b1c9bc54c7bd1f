import Switchyard
import Testing

/// Which header rule groups are reported as conflicting, and which one wins.
@Suite struct HeaderConflictTests {
    static func group(_ owner: String, _ scope: RequestScope, _ rules: [HeaderRule]) -> HeaderRules {
        HeaderRules(owner: owner, scope: scope, rules: rules)
    }

    @Test func provablyDisjointScopesDoNotConflict() {
        let conflicts = HeaderConflict.find(in: [
            Self.group("a", RequestScope(hosts: ["a.example.com"]), [.set("X-Team", "a")]),
            Self.group("b", RequestScope(hosts: ["b.example.com"]), [.set("X-Team", "b")]),
            Self.group("c", RequestScope(pathPrefixes: ["/c"]), [.set("X-Path", "c")]),
            Self.group("d", RequestScope(pathPrefixes: ["/d"]), [.remove("X-Path")]),
            Self.group("e", RequestScope(tags: ["e"]), [.set("X-Tag", "e")]),
            Self.group("f", RequestScope(tags: ["f"]), [.set("X-Tag", "f")])
        ])
        #expect(conflicts.isEmpty)
    }

    @Test func overlappingScopesConflictAndTheMoreSpecificWins() {
        let conflicts = HeaderConflict.find(in: [
            Self.group("exact", RequestScope(hosts: ["api.example.com"]), [.set("X-Team", "exact")]),
            Self.group("wildcard", RequestScope(hosts: ["*.example.com"]), [.set("X-Team", "wildcard")]),
            Self.group("anyone", .all, [.remove("x-team"), .append("X-Note", "appends never conflict")]),
            Self.group("notes", .all, [.append("X-Note", "second")])
        ])
        #expect(
            conflicts.map { "\($0.field) \($0.first)→\($0.winner)" } == [
                "x-team anyone→wildcard", "x-team anyone→exact", "x-team wildcard→exact"
            ])
    }

    @Test func deeperPathPrefixesAreMoreSpecific() {
        let conflicts = HeaderConflict.find(in: [
            Self.group("orders", RequestScope(pathPrefixes: ["/shop/orders"]), [.set("X-Team", "orders")]),
            Self.group("shop", RequestScope(pathPrefixes: ["/shop"]), [.set("X-Team", "shop")])
        ])
        #expect(conflicts.map(\.winner) == ["orders"])
    }
}
