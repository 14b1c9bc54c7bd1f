import HTTPTypes
import Switchyard
import SwitchyardConformance
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// Scoped header rules in an assembled client, as the loopback server receives them.
@Suite(.timeLimit(.minutes(2)))
struct HeadersLoopbackTests {
    static func echo(_ client: Client, _ url: String, headers: [String: String] = [:]) async throws -> EchoReport {
        var request = try Request(url: url)
        for (name, value) in headers { request.head.headerFields.append(try HTTPField.validated(name: name, value: value)) }
        return try EchoReport(try await client.send(request))
    }

    @Test func rulesSetAppendAndRemoveWithStaticAndComputedValues() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        var configuration = ClientConfiguration()
        configuration.headers = [
            HeaderRules(
                owner: "app",
                rules: [
                    .set("X-Client", "shop/5.2"),
                    .set("X-Exchange") { _, context in
                        try await Task.sleep(for: .milliseconds(1))
                        return "exchange-\(context.id)"
                    },
                    .append("Accept-Language", "en;q=0.5"),
                    .remove("X-Debug")
                ])
        ]
        let client = try Client(transport: CurlTransport(), configuration: configuration)
        let echo = try await Self.echo(
            client, server.url("/echo"),
            headers: ["X-Client": "old", "Accept-Language": "de", "X-Debug": "1"])
        #expect(echo.values(of: "X-Client") == ["shop/5.2"])
        #expect(echo.values(of: "X-Exchange").first?.hasPrefix("exchange-") == true)
        #expect(echo.values(of: "Accept-Language") == ["de", "en;q=0.5"])
        #expect(echo.values(of: "X-Debug").isEmpty)
    }

    @Test func departmentsChangeOnlyTheirOwnEndpointsAndTheMoreSpecificScopeWins() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        var configuration = ClientConfiguration()
        configuration.headers = [
            HeaderRules(
                owner: "catalog", scope: RequestScope(pathPrefixes: ["/echo/catalog"]),
                rules: [.set("X-Department", "catalog"), .set("X-Client", "catalog-client")]),
            HeaderRules(owner: "app", rules: [.set("X-Client", "shop/5.2")])
        ]
        configuration.plugins = [
            Plugin(
                name: "search", scope: RequestScope(pathPrefixes: ["/echo/search"]),
                headerRules: [.set("X-Department", "search")])
        ]
        let client = try Client(transport: CurlTransport(), configuration: configuration)

        let catalog = try await Self.echo(client, server.url("/echo/catalog/items"))
        #expect(catalog.values(of: "X-Department") == ["catalog"])
        #expect(catalog.values(of: "X-Client") == ["catalog-client"], "the more specific scope applies last")
        let search = try await Self.echo(client, server.url("/echo/search?q=shoes"))
        #expect(search.values(of: "X-Department") == ["search"])
        #expect(search.values(of: "X-Client") == ["shop/5.2"])
        let other = try await Self.echo(client, server.url("/echo/cart"))
        #expect(other.values(of: "X-Department").isEmpty)

        #expect(
            client.headerConflicts.map(\.description) == [
                "x-client: 'app' (all) and 'catalog' (paths=/echo/catalog) both change it; 'catalog' wins where both apply"
            ], "catalog and search set X-Department on disjoint paths: no conflict")
    }

    @Test func aFailingProviderOrAnInjectedValueStopsTheCallBeforeTheWire() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        struct TokenExpired: Error {}
        for rule in [
            HeaderRule.set("Authorization") { _, _ in throw TokenExpired() },
            HeaderRule.set("X-Evil") { _, _ in "a\r\nInjected: 1" }
        ] {
            var configuration = ClientConfiguration()
            configuration.headers = [HeaderRules(owner: "auth", rules: [rule])]
            let client = try Client(transport: CurlTransport(), configuration: configuration)
            let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(try Request(url: server.url("/echo"))) }
            #expect(error?.kind == .invalidRequest)
        }
        #expect(server.requestCount(path: "/echo") == 0)
    }
}
