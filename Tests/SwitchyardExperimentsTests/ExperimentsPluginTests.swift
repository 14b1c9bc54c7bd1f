import HTTPTypes
import Switchyard
import SwitchyardConformance
import SwitchyardCurl
import SwitchyardExperiments
import SwitchyardTestServer
import Testing

/// The experiments plugin in an assembled client, against the loopback server.
@Suite(.timeLimit(.minutes(2)))
struct ExperimentsPluginTests {
    static let assignment = ExperimentAssignment(
        variants: ["checkout-v2": "treatment", "search-rank": "control"], flags: ["dark-mode", "new-cart"])

    @Test func requestsInScopeCarryTheAssignmentAndTheirOutcomesAreReported() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let exposures = ExperimentExposures()
        let reported = Lock<[ExperimentExposures.Exposure]>([])
        let plugin = Plugin.experiments(
            exposures,
            scope: RequestScope(pathPrefixes: ["/echo/shop", "/status"]),
            assignment: { Self.assignment },
            report: { exposure in reported.withLock { $0.append(exposure) } })
        let client = try Client(
            transport: CurlTransport(),
            configuration: ClientConfiguration(
                validation: StatusValidation(), retry: nil, plugins: [plugin]))

        let inScope = try EchoReport(json: try await client.send(try Request(url: server.url("/echo/shop/cart"))).body)
        #expect(inScope.values(of: "X-Experiments") == ["checkout-v2=treatment; search-rank=control"])
        #expect(inScope.values(of: "X-Feature-Flags") == ["dark-mode,new-cart"])

        let outOfScope = try EchoReport(json: try await client.send(try Request(url: server.url("/echo/other"))).body)
        #expect(outOfScope.values(of: "X-Experiments").isEmpty)
        #expect(outOfScope.values(of: "X-Feature-Flags").isEmpty)

        _ = try? await client.send(try Request(url: server.url("/status/503")))

        let tally = exposures.snapshot()
        #expect(tally["checkout-v2=treatment"] == ExperimentExposures.Tally(calls: 2, failures: 1))
        #expect(tally["search-rank=control"] == ExperimentExposures.Tally(calls: 2, failures: 1))
        #expect(reported.withLock { $0.map(\.outcome) } == ["succeeded", "failed"])
    }
}
