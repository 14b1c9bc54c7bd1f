import HTTPTypes
import Switchyard
import SwitchyardCurl
import SwitchyardObservability
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

// Plugins/Observability/SwitchyardObservability.docc/MeasureWithTheTimingHarness.md, run against the loopback server.

func timingClient() throws -> (Client, TimingStats) {
    // doc:timing-setup
    let stats = TimingStats()
    stats.register(template: "/bytes/{n}")  // one row for every /bytes/… path
    var configuration = ClientConfiguration()
    configuration.plugins.append(.timingStats(stats))
    let client = try Client(transport: CurlTransport(), configuration: configuration)
    // end
    return (client, stats)
}

func timingReport(stats: TimingStats) -> String {
    // doc:timing-report
    let snapshot = stats.snapshot()
    print(snapshot.table)  // per endpoint: count, errors, p50/p90/p99/max per phase
    for endpoint in snapshot.endpoints {
        let call = endpoint.phases.first { $0.name == "call" }
        print(endpoint.method, endpoint.path, endpoint.count, call?.p99 ?? 0)  // microseconds
    }
    let json = snapshot.json()  // the same figures, for a dashboard or a file
    // end
    return json
}

@Suite struct TimingExamples {
    @Test func theHarnessCountsEachEndpoint() async throws {
        try await withLoopbackServer { server in
            let (client, stats) = try timingClient()
            for size in [10, 20, 30] { _ = try await client.send(try Request(url: server.url("/bytes/\(size)"))) }
            let json = timingReport(stats: stats)
            #expect(stats.snapshot().endpoints.contains { $0.path == "/bytes/{n}" && $0.count == 3 })
            #expect(json.contains("bytes"))
        }
    }
}
