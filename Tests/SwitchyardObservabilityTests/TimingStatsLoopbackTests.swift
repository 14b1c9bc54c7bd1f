import Foundation
import MetricsTestKit
import Switchyard
import SwitchyardCurl
import SwitchyardObservability
import SwitchyardTestServer
import Testing

/// Per-endpoint timing statistics of an assembled client, against the loopback server.
@Suite(.timeLimit(.minutes(2)))
struct TimingStatsLoopbackTests {
    static func client(_ stats: TimingStats, metrics: TestMetrics? = nil, retry: RetryPolicy? = nil) throws -> Client {
        var configuration = ClientConfiguration(
            retry: retry, callInterceptors: [ClosureInterceptor(name: "Noop") { r, _, next in try await next(r) }])
        configuration.plugins.append(.timingStats(stats, exporter: metrics.map { TimingMetricsExporter(factory: $0) }))
        return try Client(transport: CurlTransport(), configuration: configuration)
    }

    @Test func callsAggregatePerEndpointTemplateWithErrorsAndOrderedPercentiles() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let stats = TimingStats()
        stats.register(template: "/status/{code}")
        let client = try Self.client(stats)
        for path in ["/status/200", "/status/201", "/status/503", "/bytes/10", "/bytes/20", "/small"] {
            _ = try await client.send(try Request(url: server.url(path)))
        }
        let snapshot = stats.snapshot()
        let byPath = Dictionary(uniqueKeysWithValues: snapshot.endpoints.map { ($0.path, $0) })
        #expect(Set(byPath.keys) == ["/status/{code}", "/bytes/{id}", "/small"])
        #expect(byPath["/status/{code}"]?.count == 3)
        #expect(byPath["/status/{code}"]?.errors == 1)
        #expect(byPath["/bytes/{id}"]?.count == 2)
        #expect(byPath["/small"]?.errors == 0)
        for endpoint in snapshot.endpoints {
            let names = endpoint.phases.map(\.name)
            #expect(Array(names.prefix(2)) == ["call", "queued"])
            #expect(names.contains("ttfb"))
            #expect(names.contains("interceptor:Noop"))
            for phase in endpoint.phases where phase.name == "call" || phase.name == "ttfb" {
                #expect(phase.p50 > 0)
                #expect(phase.p50 <= phase.p90 && phase.p90 <= phase.p99 && phase.p99 <= phase.max)
            }
        }
        let decoded = try JSONDecoder().decode(TimingSnapshot.self, from: Data(snapshot.json().utf8))
        #expect(decoded == snapshot)
        let table = snapshot.table
        let host = server.url("/").replacingOccurrences(of: "http://", with: "").replacingOccurrences(of: "/", with: "")
        for path in ["/status/{code}", "/bytes/{id}", "/small"] { #expect(table.contains("GET \(host)\(path)")) }
        #expect(table.contains("p99 ms"))
    }

    @Test func aRetriedCallShowsItsBackOff() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let stats = TimingStats()
        _ = try await Self.client(stats, retry: RetryPolicy(maxAttempts: 3)).send(try Request(url: server.url("/flaky/t/1?retry-after=")))
        let phases = stats.snapshot().endpoints.first?.phases.map(\.name) ?? []
        #expect(phases.contains("backoff"))
    }

    @Test func stageTimingsAreRecordedOnlyWhenStatisticsAreOn() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let on = try await Self.client(TimingStats()).send(try Request(url: server.url("/small")))
        #expect(on.context.pipelineTimings.queued != nil)
        #expect(on.context.pipelineTimings.interceptors["Noop"] != nil)
        let off = try await Client(transport: CurlTransport(), configuration: ClientConfiguration())
            .send(try Request(url: server.url("/small")))
        #expect(off.context.pipelineTimings.queued == nil)
        #expect(off.context.pipelineTimings.interceptors.isEmpty)
    }

    @Test func callsAreExportedToSwiftMetrics() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let metrics = TestMetrics()
        let client = try Self.client(TimingStats(), metrics: metrics)
        _ = try await client.send(try Request(url: server.url("/status/500")))
        let host = server.url("/").replacingOccurrences(of: "http://", with: "").replacingOccurrences(of: "/", with: "")
        let dimensions = [("method", "GET"), ("host", host), ("path", "/status/{id}")]
        let timer = try metrics.expectTimer(TimingMetricsExporter.timerLabel, dimensions + [("phase", "call")])
        #expect(timer.values.count == 1)
        let errors = try metrics.expectCounter(TimingMetricsExporter.errorLabel, dimensions)
        #expect(errors.values == [1])
    }
}
