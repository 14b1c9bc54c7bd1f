import HTTPTypes
import Switchyard
import SwitchyardConformance
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// The soak under faults (issue 15), shortened to 5,000 requests per transport: through the default
/// chain against the embedded server injecting resets, stalls, truncations, malformed framing and
/// bursts of 503s, every request ends (none hangs past its deadline plus grace), no POST reaches the
/// server twice, and every 200 delivered as complete is byte-identical to the body asked for.
/// No timing assertion and no process figures (those are `yard bench --soak`'s, in a process of its own).
@Suite(.timeLimit(.minutes(15))) struct SoakLoopbackTests {
    @Test(arguments: TransportKind.allCases)
    func fiveThousandRequestsUnderFaultsEndWithoutHangsDuplicatesOrCorruption(transport: TransportKind) async throws {
        var configuration = SoakConfiguration(
            requests: 5_000, concurrency: 32, faults: SoakConfiguration.defaultFaults,
            deadline: .seconds(10), grace: .seconds(60))
        configuration.sizes = [256, 1024, 4096, 16384]
        configuration.warmupRequests = 0
        configuration.measuresProcess = false
        let report = try await SoakRun(configuration: configuration, transportName: transport.rawValue) { transport.make() }.run()

        #expect(report.hung == 0, "\(report.table)")
        #expect(report.duplicatedPosts == 0, "\(report.table)")
        #expect(report.corrupted == 0, "\(report.table)")
        #expect(report.ended == configuration.requests, "\(report.table)")
        // The faults happened and were reported as what they are.
        for fault in FaultPlan.Fault.allCases {
            #expect(report.injectedFaults[fault.rawValue, default: 0] > 0, "no \(fault) injected")
        }
        #expect(report.failedByKind["timeout", default: 0] > 0, "stalls end by the deadline: \(report.table)")
        #expect(report.failedByKind["connectionFailed", default: 0] > 0, "resets of POSTs are not retried: \(report.table)")
        #expect(report.failedByKind["protocolViolation", default: 0] > 0, "truncations and bad framing: \(report.table)")
        #expect(report.completedByStatus[503, default: 0] > 0, "POSTs in a burst get its 503: \(report.table)")
        #expect(report.failedByKind["other"] == nil, "every failure is a SwitchyardError: \(report.table)")
    }

    @Test func theSameSeedInjectsTheSameFaults() async throws {
        var configuration = SoakConfiguration(
            requests: 150, concurrency: 1,
            faults: try FaultPlan(spec: "reset=0.05,truncate=0.05,malformed=0.05,burst=0.02", seed: 7),
            deadline: .seconds(30), grace: .seconds(60))
        configuration.warmupRequests = 0
        configuration.measuresProcess = false
        configuration.sizes = [1024]
        // Retries that follow the clock (the retry budget) would make a slow run's requests differ.
        configuration.client = ClientConfiguration(retryBudget: nil)
        let run = SoakRun(configuration: configuration, transportName: "curl") { TransportKind.curl.make() }
        let first = try await run.run()
        let second = try await run.run()
        #expect(first.injectedFaults == second.injectedFaults)
        #expect(first.injectedFaults.values.reduce(0, +) > 0)
        configuration.faults.seed = 8
        let other = try await SoakRun(configuration: configuration, transportName: "curl") { TransportKind.curl.make() }.run()
        #expect(other.injectedFaults != first.injectedFaults)
    }

    @Test func theDescriptorCensusTellsTheClientAndServerSidesOfAConnectionApart() async throws {
        let server = try await LoopbackServer.start()
        let transport = TransportKind.curl.make()
        let client = try Client(transport: transport, configuration: ClientConfiguration())
        let before = SoakDescriptorCensus.now(serverPort: server.port)
        #expect(before.counts["tcp listening", default: 0] >= 1, "\(before)")
        _ = try await client.send(try Request(url: server.url("/small")))
        // The kept-alive connection: one descriptor on each side of it, in this one process.
        let during = SoakDescriptorCensus.now(serverPort: server.port)
        #expect(during.counts["tcp client ESTABLISHED", default: 0] == before.counts["tcp client ESTABLISHED", default: 0] + 1, "\(during)")
        #expect(during.counts["tcp server ESTABLISHED", default: 0] == before.counts["tcp server ESTABLISHED", default: 0] + 1, "\(during)")
        try await transport.shutdown()
        try await server.shutdown()
    }

    @Test func aFaultSpecificationReadsAsOnTheCommandLine() throws {
        let plan = try FaultPlan(spec: "reset=0.01,stall=0.005,truncate=0.01,malformed=0.005,burst=0.01,burst-length=4", seed: 3)
        #expect(plan.resetBeforeResponse == 0.005 && plan.resetMidBody == 0.005)
        #expect(plan.stall == 0.005 && plan.truncate == 0.01 && plan.malformed == 0.005 && plan.burst == 0.01)
        #expect(plan.burstLength == 4 && plan.seed == 3)
        #expect(throws: FaultPlan.SpecError.self) { try FaultPlan(spec: "reset=2") }
        #expect(throws: FaultPlan.SpecError.self) { try FaultPlan(spec: "explode=0.1") }
        #expect(throws: FaultPlan.SpecError.self) { try FaultPlan(spec: "stall=0.6,burst=0.6") }
    }
}
