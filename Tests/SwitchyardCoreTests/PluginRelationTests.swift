import HTTPTypes
import Switchyard
import SwitchyardTesting
import SwitchyardTraffic
import Testing

/// `Plugin.relations`: orders a plugin depends on, checked when the chain is assembled.
@Suite struct PluginRelationTests {
    private static let transport = StubTransport.status(.ok)

    /// A plugin with one pass-through link (a plugin without links has no place to check).
    private static func link(_ name: String) -> [any Interceptor] {
        [ClosureInterceptor(name: name) { request, _, next in try await next(request) }]
    }

    private static func assemble(_ plugins: [Plugin], retry: Bool = true) throws(PluginConfigurationError) -> Client {
        try Client(transport: transport, configuration: ClientConfiguration(retry: retry ? RetryPolicy() : nil, plugins: plugins))
    }

    @Test func aPluginInsideTheRetryLinkThatMustBeOutsideItIsRefused() throws {
        let misplaced = Plugin(
            name: "gate", layer: .nextToTransport, relations: [.outside("retry")], interceptors: Self.link("gate"))
        #expect(throws: PluginConfigurationError.relationViolated(plugin: "gate", relation: .outside("retry"))) {
            _ = try Self.assemble([misplaced])
        }
        // The same plugin above the retry link assembles, and the order is the one it asked for.
        let client = try Self.assemble([
            Plugin(name: "gate", layer: .inner, relations: [.outside("retry")], interceptors: Self.link("gate"))
        ])
        let origins = client.chain.map(\.origin)
        let gate = try #require(origins.firstIndex(of: .plugin("gate")))
        let retry = try #require(origins.firstIndex(of: .plugin("retry")))
        #expect(gate < retry)
    }

    @Test func insideHoldsOnlyBelowEveryLinkOfTheOther() throws {
        let audit = Plugin(name: "audit", position: .call, interceptors: Self.link("audit"))
        let below = Plugin(name: "signer", position: .attempt, relations: [.inside("audit")], interceptors: Self.link("signer"))
        _ = try Self.assemble([audit, below])  // attempt links are inside every call link
        let above = Plugin(name: "signer", layer: .outer, relations: [.inside("audit")], interceptors: Self.link("signer"))
        #expect(throws: PluginConfigurationError.relationViolated(plugin: "signer", relation: .inside("audit"))) {
            _ = try Self.assemble([audit, above])
        }
    }

    @Test func aRelationToAPluginTheClientDoesNotHaveHolds() throws {
        let gate = Plugin(name: "gate", layer: .nextToTransport, relations: [.outside("retry")], interceptors: Self.link("gate"))
        let client = try Self.assemble([gate], retry: false)
        #expect(client.chain.contains { $0.origin == .plugin("gate") })
    }

    @Test func registeringAPluginThatBreaksARelationLeavesTheChainAsItWas() throws {
        let client = try Self.assemble([])
        let before = client.chain.map(\.description)
        let misplaced = Plugin(
            name: "gate", layer: .nextToTransport, relations: [.outside("retry")], interceptors: Self.link("gate"))
        #expect(throws: PluginConfigurationError.relationViolated(plugin: "gate", relation: .outside("retry"))) {
            try client.register(misplaced)
        }
        #expect(client.chain.map(\.description) == before)
    }

    @Test func theStandardLinksKeepTheirOrderWithinTheirStages() throws {
        let configuration = ClientConfiguration(
            validation: StatusValidation(), maxResponseBytes: 1 << 20, redirects: RedirectPolicy(), retry: RetryPolicy())
        let client = try Client(transport: Self.transport, configuration: configuration)
        let names = client.chain.compactMap { link -> String? in
            if case .plugin(let name) = link.origin { name } else { nil }
        }
        #expect(names == ["events", "popUps", "validation", "sizeLimit", "redirects", "retry"])
    }

    @Test func theShippedPluginsStateTheirRelationsAndAssembleInTheStandardChain() throws {
        let connectivity = Plugin.connectivity(ManualConnectivitySource())
        #expect(connectivity.relations == [.outside("retry")])
        let client = try Self.assemble([connectivity])
        let origins = client.chain.map(\.origin)
        #expect(try #require(origins.firstIndex(of: .plugin("connectivity"))) < #require(origins.firstIndex(of: .plugin("retry"))))
        #expect(try #require(origins.firstIndex(of: .plugin("redirects"))) < #require(origins.firstIndex(of: .plugin("retry"))))
        #expect(
            PluginConfigurationError.relationViolated(plugin: "gate", relation: .outside("retry")).description.contains("outside retry"))
    }
}
