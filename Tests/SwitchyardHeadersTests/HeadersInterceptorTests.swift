import HTTPTypes
import Switchyard
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

/// `HeadersInterceptor` and its `HeaderRules`/`HeaderRule` values, over a stub transport: what the
/// transport receives is what the rules made of the request.
@Suite struct HeadersInterceptorTests {
    /// Sends `request` through a headers interceptor with `groups` and returns the fields the transport received.
    private static func fieldsSent(
        _ groups: [HeaderRules], _ request: Request
    ) async throws -> HTTPFields {
        let stub = StubTransport.status(.ok)
        _ = try await Client(transport: stub, interceptors: [HeadersInterceptor(groups: groups)]).send(request)
        return try #require(stub.requests.last).head.headerFields
    }

    private static func values(_ fields: HTTPFields, _ name: String) -> [String] {
        fields[values: HTTPField.Name(name)!]
    }

    // MARK: - One rule

    @Test func setReplacesEveryExistingValueWhateverTheCaseOfItsName() async throws {
        let request = try Request(
            url: "https://api.example.com/items",
            headers: ["x-client": "old-1", "X-Other": "kept", "X-CLIENT": "old-2"])
        let fields = try await Self.fieldsSent([HeaderRules(owner: "app", rules: [.set("X-Client", "shop/5.2")])], request)
        #expect(Self.values(fields, "X-Client") == ["shop/5.2"])
        #expect(Self.values(fields, "X-Other") == ["kept"])
    }

    @Test func setAddsAFieldTheRequestDidNotHave() async throws {
        let fields = try await Self.fieldsSent(
            [HeaderRules(owner: "app", rules: [.set("X-Client", "shop/5.2")])],
            try Request(url: "https://api.example.com/"))
        #expect(Self.values(fields, "X-Client") == ["shop/5.2"])
    }

    @Test func appendKeepsExistingValuesAndAddsItsOwnLast() async throws {
        let request = try Request(url: "https://api.example.com/", headers: ["Accept-Language": "de", "X-Other": "1"])
        let fields = try await Self.fieldsSent(
            [HeaderRules(owner: "app", rules: [.append("Accept-Language", "en;q=0.5")])],
            request)
        #expect(Self.values(fields, "Accept-Language") == ["de", "en;q=0.5"])
        #expect(fields.map(\.name.canonicalName).last == "accept-language")
    }

    @Test func removeDropsEveryValueCaseInsensitivelyAndIgnoresAnAbsentField() async throws {
        let request = try Request(url: "https://api.example.com/", headers: ["X-Debug": "1", "x-debug": "2", "X-Keep": "k"])
        let fields = try await Self.fieldsSent(
            [HeaderRules(owner: "app", rules: [.remove("X-DEBUG"), .remove("X-Absent")])],
            request)
        #expect(Self.values(fields, "X-Debug").isEmpty)
        #expect(Self.values(fields, "X-Keep") == ["k"])
    }

    @Test func aRuleDescribesItsNameAndOperation() {
        #expect(HeaderRule.set("X-A", "1").operation == .set)
        #expect(HeaderRule.set("X-A") { _, _ in "1" }.operation == .set)
        #expect(HeaderRule.append("X-B", "2").operation == .append)
        #expect(HeaderRule.append("X-B") { _, _ in "2" }.operation == .append)
        #expect(HeaderRule.remove("X-C").operation == .remove)
        #expect(HeaderRule.remove("X-C").name == "X-C")
    }

    // MARK: - Computed values

    @Test func aProviderIsAskedPerRequestWithTheRequestAndItsContext() async throws {
        let asked = Lock<[String]>([])
        let rule = HeaderRule.set("X-Exchange") { request, context in
            asked.withLock { $0.append(request.head.path ?? "") }
            return "exchange-\(context.id)"
        }
        let stub = StubTransport.status(.ok)
        let client = Client(transport: stub, interceptors: [HeadersInterceptor(groups: [HeaderRules(owner: "app", rules: [rule])])])
        let first = try await client.send(try Request(url: "https://api.example.com/one"))
        let second = try await client.send(try Request(url: "https://api.example.com/two"))
        #expect(asked.withLock { $0 } == ["/one", "/two"])
        #expect(
            stub.requests.map { $0.head.headerFields[HTTPField.Name("X-Exchange")!] }
                == ["exchange-\(first.context.id)", "exchange-\(second.context.id)"])
        #expect(first.context.id != second.context.id)
    }

    @Test func aFailingProviderStopsTheCallBeforeTheTransportAndNamesTheOwner() async throws {
        struct TokenExpired: Error {}
        let stub = StubTransport.status(.ok)
        let rules = HeaderRules(owner: "auth", rules: [.set("Authorization") { _, _ in throw TokenExpired() }])
        let client = Client(transport: stub, interceptors: [HeadersInterceptor(groups: [rules])])
        let error = await failure(of: client, try Request(url: "https://api.example.com/"))
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("'auth'") == true, "\(String(describing: error?.message))")
        #expect(error?.message.contains("Authorization") == true)
        #expect(error?.underlyingError is TokenExpired)
        #expect(stub.callCount == 0)
    }

    @Test(arguments: ["a\r\nInjected: 1", "line\nbreak", "nul\u{0}byte"])
    func aComputedValueThatWouldInjectAFieldIsRefused(_ value: String) async throws {
        let stub = StubTransport.status(.ok)
        let rules = HeaderRules(owner: "evil", rules: [.set("X-Evil") { _, _ in value }])
        let error = await failure(
            of: Client(transport: stub, interceptors: [HeadersInterceptor(groups: [rules])]),
            try Request(url: "https://api.example.com/"))
        #expect(error?.kind == .invalidRequest)
        #expect(stub.callCount == 0)
    }

    @Test func anInvalidFieldNameIsRefusedNamingTheOwner() async throws {
        let stub = StubTransport.status(.ok)
        let rules = HeaderRules(owner: "catalog", rules: [.set("Bad Name", "1")])
        let error = await failure(
            of: Client(transport: stub, interceptors: [HeadersInterceptor(groups: [rules])]),
            try Request(url: "https://api.example.com/"))
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("'catalog'") == true)
        #expect(error?.message.contains("Bad Name") == true)
        #expect(stub.callCount == 0)
    }

    // MARK: - Groups and scopes

    @Test func rulesOfOneGroupApplyInTheirOrder() async throws {
        let rules = HeaderRules(owner: "app", rules: [.set("X-A", "1"), .append("X-A", "2"), .remove("X-B"), .set("X-B", "3")])
        let fields = try await Self.fieldsSent([rules], try Request(url: "https://api.example.com/", headers: ["X-B": "0"]))
        #expect(Self.values(fields, "X-A") == ["1", "2"])
        #expect(Self.values(fields, "X-B") == ["3"])
    }

    @Test func aGroupAppliesOnlyToRequestsInItsScope() async throws {
        let groups = [
            HeaderRules(owner: "payments", scope: RequestScope(hosts: ["pay.example.com"]), rules: [.set("X-Host", "pay")]),
            HeaderRules(owner: "catalog", scope: RequestScope(pathPrefixes: ["/catalog"]), rules: [.set("X-Path", "catalog")]),
            HeaderRules(owner: "beta", scope: RequestScope(tags: ["beta"]), rules: [.set("X-Tag", "beta")])
        ]
        let other = try await Self.fieldsSent(groups, try Request(url: "https://shop.example.com/cart"))
        #expect(Self.values(other, "X-Host").isEmpty && Self.values(other, "X-Path").isEmpty && Self.values(other, "X-Tag").isEmpty)

        let pay = try await Self.fieldsSent(groups, try Request(url: "https://pay.example.com/catalog/items"))
        #expect(Self.values(pay, "X-Host") == ["pay"])
        #expect(Self.values(pay, "X-Path") == ["catalog"])
        #expect(Self.values(pay, "X-Tag").isEmpty)

        var tagged = try Request(url: "https://shop.example.com/catalogue")
        tagged.options.tags = ["beta"]
        let beta = try await Self.fieldsSent(groups, tagged)
        #expect(Self.values(beta, "X-Tag") == ["beta"])
        #expect(Self.values(beta, "X-Path").isEmpty, "/catalogue is not under /catalog")
    }

    @Test func theMoreSpecificScopeAppliesLastAndSoWinsWhateverTheDeclarationOrder() async throws {
        let groups = [
            HeaderRules(owner: "orders", scope: RequestScope(pathPrefixes: ["/api/orders"]), rules: [.set("X-Owner", "orders")]),
            HeaderRules(owner: "api", scope: RequestScope(pathPrefixes: ["/api"]), rules: [.set("X-Owner", "api")]),
            HeaderRules(owner: "app", rules: [.set("X-Owner", "app")])
        ]
        #expect(HeadersInterceptor(groups: groups).groups.map(\.owner) == ["app", "api", "orders"])
        let orders = try await Self.fieldsSent(groups, try Request(url: "https://example.com/api/orders/7"))
        #expect(Self.values(orders, "X-Owner") == ["orders"])
        let api = try await Self.fieldsSent(groups, try Request(url: "https://example.com/api/users"))
        #expect(Self.values(api, "X-Owner") == ["api"])
        let root = try await Self.fieldsSent(groups, try Request(url: "https://example.com/health"))
        #expect(Self.values(root, "X-Owner") == ["app"])
    }

    @Test func aConcreteHostIsMoreSpecificThanAWildcardAndEqualScopesKeepDeclarationOrder() {
        let groups = [
            HeaderRules(owner: "exact", scope: RequestScope(hosts: ["api.example.com"]), rules: []),
            HeaderRules(owner: "wildcard", scope: RequestScope(hosts: ["*.example.com"]), rules: []),
            HeaderRules(owner: "first", rules: []),
            HeaderRules(owner: "second", rules: [])
        ]
        #expect(HeadersInterceptor(groups: groups).groups.map(\.owner) == ["first", "second", "wildcard", "exact"])
    }

    @Test func withoutGroupsTheRequestPassesUnchanged() async throws {
        let request = try Request(url: "https://api.example.com/", headers: ["X-A": "1", "x-b": "2", "X-A": "3"])
        let fields = try await Self.fieldsSent([], request)
        #expect(fields == request.head.headerFields)
    }
}
