import HTTPTypes
import Testing

@testable import Switchyard
@testable import SwitchyardCore

/// `PluginOrder`: how placements order the plugins of one chain position, and which placements are
/// impossible. (How the order shows in an assembled chain is covered in `ChainAssemblyTests`.)
@Suite struct PluginOrderTests {
    private static func order(_ plugins: [Plugin], position: ChainPosition = .call) throws -> [String] {
        try PluginOrder.sorted(plugins, position: position).map(\.name)
    }

    @Test func withoutPlacementsTheRegistrationOrderIsKept() throws {
        #expect(try Self.order([]) == [])
        #expect(try Self.order([Plugin(name: "c"), Plugin(name: "a"), Plugin(name: "b")]) == ["c", "a", "b"])
    }

    @Test func beforeAndAfterPutAPluginNextToItsTarget() throws {
        let plugins = [
            Plugin(name: "a"), Plugin(name: "b"), Plugin(name: "c"),
            Plugin(name: "outside-b", placement: .before("b")),
            Plugin(name: "inside-a", placement: .after("a"))
        ]
        #expect(try Self.order(plugins) == ["a", "inside-a", "outside-b", "b", "c"])
    }

    @Test func layersOrderPluginsOuterFirstAndKeepRegistrationOrderWithinALayer() throws {
        let plugins = [
            Plugin(name: "limiter", layer: .holding),
            Plugin(name: "payments"),
            Plugin(name: "retry", layer: .inner),
            Plugin(name: "breaker", layer: .admission),
            Plugin(name: "search"),
            Plugin(name: "stats", layer: .outer),
            Plugin(name: "signing", placement: .after("payments"))
        ]
        #expect(try Self.order(plugins) == ["breaker", "stats", "payments", "signing", "search", "retry", "limiter"])
    }

    @Test func relationsMoveAPluginWithinItsLayerAndLeaveOtherLayersAlone() throws {
        let plugins = [
            Plugin(name: "judge", layer: .checking),
            Plugin(name: "measure", layer: .checking, relations: [.inside("judge")]),
            Plugin(name: "resend", layer: .checking),
            Plugin(name: "gate", layer: .checking, relations: [.outside("judge")]),
            Plugin(name: "last", layer: .checking, relations: [.inside("resend")]),
            Plugin(name: "outer", layer: .outer, relations: [.inside("judge")])  // another layer: not moved
        ]
        #expect(try Self.order(plugins) == ["outer", "gate", "judge", "measure", "resend", "last"])
    }

    @Test func contradictingRelationsAreRefused() throws {
        let plugins = [
            Plugin(name: "a", relations: [.outside("b")]),
            Plugin(name: "b", relations: [.outside("a")])
        ]
        #expect(throws: PluginConfigurationError.self) { try Self.order(plugins) }
    }

    @Test func stagesAreNamedAndOrdered() {
        let stages: [Plugin.Layer] = [
            .outermost, .measuring, .admission, .appDefaults, .outer, .department, .inner, .holding, .recording,
            .checking, .resending, .nextToTransport
        ]
        #expect(stages == stages.sorted())
        #expect(Set(stages).count == stages.count)
        #expect(stages.map(\.description).contains("department"))
    }

    @Test func appInterceptorsSitBeforeCallPluginsOfTheirLayerAndAfterAttemptPluginsOfIt() throws {
        let configuration = ClientConfiguration(
            events: nil, redirects: nil, retry: nil, retryBudget: nil,
            plugins: [
                Plugin(name: "call-outer", layer: .outer, interceptors: [ForwardingLink()]),
                Plugin(name: "call-department", interceptors: [ForwardingLink()]),
                Plugin(name: "call-inner", layer: .inner, interceptors: [ForwardingLink()]),
                Plugin(name: "attempt-outer", position: .attempt, layer: .outer, interceptors: [ForwardingLink()]),
                Plugin(name: "attempt-department", position: .attempt, interceptors: [ForwardingLink()]),
                Plugin(name: "attempt-inner", position: .attempt, layer: .inner, interceptors: [ForwardingLink()])
            ],
            callInterceptors: [ForwardingLink()], attemptInterceptors: [ForwardingLink()])
        let client = try Client(transport: ClosureTransport { _, _ in Response(status: .ok) }, configuration: configuration)
        let origins = client.chain.map { link -> String in
            switch link.origin {
            case .plugin(let name): name
            case .app: "app-\(link.position)"
            case .transport: "transport"
            }
        }
        #expect(
            origins == [
                "popUps", "call-outer", "app-call", "call-department", "call-inner",
                "attempt-outer", "attempt-department", "app-attempt", "attempt-inner", "transport"
            ])
    }

    @Test func aPlacementMayNameAPluginRegisteredLater() throws {
        let plugins = [Plugin(name: "signing", placement: .after("auth")), Plugin(name: "logging"), Plugin(name: "auth")]
        #expect(try Self.order(plugins) == ["logging", "auth", "signing"])
    }

    @Test func placementsRelativeToPlacedPluginsResolveWhateverTheirRegistrationOrder() throws {
        // d after c, c before b, b after a: only b can be placed first, then c, then d.
        let plugins = [
            Plugin(name: "d", placement: .after("c")),
            Plugin(name: "c", placement: .before("b")),
            Plugin(name: "b", placement: .after("a")),
            Plugin(name: "a"),
            Plugin(name: "z")
        ]
        #expect(try Self.order(plugins) == ["a", "c", "d", "b", "z"])
    }

    @Test func everyPluginIsKeptExactlyOnce() throws {
        let plugins = [
            Plugin(name: "a"), Plugin(name: "b", placement: .before("a")), Plugin(name: "c", placement: .after("a")),
            Plugin(name: "d", placement: .before("c")), Plugin(name: "e")
        ]
        let ordered = try Self.order(plugins)
        #expect(ordered.sorted() == ["a", "b", "c", "d", "e"])
        let index = { (name: String) in ordered.firstIndex(of: name)! }
        #expect(index("b") < index("a"))
        #expect(index("a") < index("c"))
        #expect(index("d") < index("c"))
    }

    @Test func aPlacementNamingAnUnknownPluginIsReportedWithItsPosition() {
        let plugins = [Plugin(name: "a"), Plugin(name: "b", position: .attempt, placement: .before("missing"))]
        #expect(throws: PluginConfigurationError.unknownPlacementTarget(plugin: "b", target: "missing", position: .attempt)) {
            try PluginOrder.sorted(plugins, position: .attempt)
        }
    }

    @Test func twoPluginsPlacedRelativeToEachOtherAreACycle() {
        let plugins = [Plugin(name: "a", placement: .after("b")), Plugin(name: "b", placement: .after("a")), Plugin(name: "c")]
        #expect(throws: PluginConfigurationError.placementCycle(["a", "b"])) { try Self.order(plugins) }
    }

    @Test func aLongerCycleNamesEveryPluginInIt() {
        let plugins = [
            Plugin(name: "x"),
            Plugin(name: "a", placement: .before("b")), Plugin(name: "b", placement: .before("c")),
            Plugin(name: "c", placement: .after("a")),
            Plugin(name: "y", placement: .after("x"))
        ]
        #expect(throws: PluginConfigurationError.placementCycle(["a", "b", "c"])) { try Self.order(plugins) }
    }

    @Test func aPluginPlacedRelativeToItselfIsACycle() {
        #expect(throws: PluginConfigurationError.placementCycle(["a"])) {
            try Self.order([Plugin(name: "b"), Plugin(name: "a", placement: .before("a"))])
        }
    }

    @Test func aPlacementAcrossPositionsIsImpossibleInAClient() {
        let plugins = [Plugin(name: "signing", position: .attempt), Plugin(name: "audit", placement: .before("signing"))]
        #expect(throws: PluginConfigurationError.unknownPlacementTarget(plugin: "audit", target: "signing", position: .call)) {
            try Client(
                transport: ClosureTransport { _, _ in Response(status: .ok) },
                configuration: ClientConfiguration(plugins: plugins))
        }
    }

    @Test func eachErrorTellsWhatToChange() {
        let unknown = PluginConfigurationError.unknownPlacementTarget(plugin: "audit", target: "signing", position: .call)
        #expect(unknown.description.contains("'audit'") && unknown.description.contains("'signing'"))
        #expect(unknown.description.contains("call-position"))
        let cycle = PluginConfigurationError.placementCycle(["a", "b"])
        #expect(cycle.description.contains("a, b"))
        #expect(cycle.description.contains("remove one of their before/after constraints"))
        #expect(PluginConfigurationError.duplicateName("x").description.contains("'x'"))
    }
}

/// A link that only forwards.
private struct ForwardingLink: Interceptor {
    func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response { try await next(request) }
}
