import CoreMetrics
import HTTPTypes
import MetricsTestKit
import Switchyard
import SwitchyardObservability
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardTesting
import Synchronization
import Testing

/// The label pairs as a dictionary.
private func labels(_ dimensions: [(String, String)]) -> [String: String] {
    Dictionary(dimensions, uniquingKeysWith: { $1 })
}

@Suite(.timeLimit(.minutes(2))) struct HTTPClientMetricsLoopbackTests {
    @Test(arguments: TransportKind.allCases)
    func attemptsAreRecordedUnderTheOpenTelemetryNamesWithBoundedLabels(_ kind: TransportKind) async throws {
        let test = TestMetrics()
        let metrics = HTTPClientMetrics(factory: test, templates: ["/bytes/{n}"])
        var configuration = ClientConfiguration(redirects: nil, retry: RetryPolicy(maxAttempts: 3, backoff: RetryBackoff(random: { 0 })))
        configuration.plugins.append(.httpMetrics(metrics))
        try await withLoopbackClient(kind, configuration: configuration) { client, server in
            // 100 kB: more than a transport hands out whole when it already arrived with the head
            // (curl: 64 KiB), so the body is still streaming when `stream` returns.
            let streamed = try await client.stream(try Request(url: server.url("/bytes/100000?access_token=s3cr3t")))
            // Active while the body is unread; recorded only once it ends.
            let active = try #require(test.meters(label: HTTPClientMetrics.activeRequestsLabel).first)
            #expect(active.lastValue == 1)
            #expect(test.recorders(label: HTTPClientMetrics.durationLabel).isEmpty)
            #expect(try await streamed.body.collect(upTo: 1 << 20).count == 100_000)
            #expect(await eventually { !test.recorders(label: HTTPClientMetrics.durationLabel).isEmpty })
            #expect(active.lastValue == 0)

            let duration = try #require(test.recorders(label: HTTPClientMetrics.durationLabel).first)
            #expect(
                labels(duration.dimensions) == [
                    "http.request.method": "GET", "url.scheme": "http", "server.address": "127.0.0.1",
                    "server.port": String(server.port), "http.response.status_code": "200", "url.template": "/bytes/{n}"
                ])
            #expect(duration.values.count == 1)
            #expect(duration.values[0] > 0 && duration.values[0] < 60)  // seconds
            let size = try test.expectRecorder(HTTPClientMetrics.responseBodySizeLabel, duration.dimensions)
            #expect(size.values == [100_000])
            #expect(!test.recorders.contains { $0.dimensions.contains { $0.1.contains("s3cr3t") } })

            // A POST with a body, an untemplated path (no url.template label, never the raw path),
            // and a retried request: one measurement per attempt, error.type on the failures.
            _ = try await client.send(try Request(method: .post, url: server.url("/echo/body"), body: HTTPBody("twelve bytes")))
            let posted = try #require(
                test.recorders(label: HTTPClientMetrics.requestBodySizeLabel).first {
                    labels($0.dimensions)["http.request.method"] == "POST"
                })
            #expect(posted.values == [12])
            #expect(labels(posted.dimensions)["url.template"] == nil)

            var tagged = try Request(url: server.url("/flaky/metrics-\(kind)/1"))
            tagged.options.tags = ["template:/flaky/{key}/{n}"]
            _ = try await client.send(tagged)
            #expect(await eventually { test.recorders(label: HTTPClientMetrics.durationLabel).count >= 4 })
            let flaky = test.recorders(label: HTTPClientMetrics.durationLabel).filter {
                labels($0.dimensions)["url.template"] == "/flaky/{key}/{n}"
            }
            let outcomes = Set(flaky.map { labels($0.dimensions)["error.type"] ?? "none" })
            #expect(outcomes == ["503", "none"])
            #expect(flaky.flatMap(\.values).count == 2)
        }
    }

    @Test func aFailedAttemptCarriesItsErrorKind() async throws {
        let test = TestMetrics()
        var configuration = ClientConfiguration(redirects: nil, retry: nil)
        configuration.plugins.append(.httpMetrics(HTTPClientMetrics(factory: test)))
        try await withLoopbackClient(.curl, configuration: configuration) { client, _ in
            let refusing = try RefusingPort()
            let url = refusing.url("/small")
            defer { refusing.close() }
            #expect(await failure(of: client, try Request(url: url))?.kind == .connectionFailed)
            let duration = try #require(test.recorders(label: HTTPClientMetrics.durationLabel).first)
            #expect(labels(duration.dimensions)["error.type"] == "connectionFailed")
            #expect(labels(duration.dimensions)["http.response.status_code"] == nil)
            #expect(test.meters(label: HTTPClientMetrics.activeRequestsLabel).first?.lastValue == 0)
        }
    }

    @Test func metricObjectsAreCreatedOncePerLabelSet() async throws {
        let test = TestMetrics()
        let counting = CountingFactory(base: test)
        var configuration = ClientConfiguration(redirects: nil, retry: nil)
        configuration.plugins.append(.httpMetrics(HTTPClientMetrics(factory: counting)))
        try await withLoopbackClient(.curl, configuration: configuration) { client, server in
            for _ in 0..<20 { _ = try await client.send(try Request(url: server.url("/small"))) }
            #expect(counting.made.load(ordering: .relaxed) == 4)  // 1 meter + 3 recorders
            #expect(test.recorders(label: HTTPClientMetrics.durationLabel).first?.values.count == 20)
        }
    }

    /// "Small" as the work per request, which a test can pin (the time it takes is printed, never
    /// asserted: it depends on the machine and its load). Over 20,200 requests the link made its metric
    /// objects once (one meter and three recorders, for the one label set) and recorded exactly one
    /// measurement per instrument and request: no per-request objects, no extra recordings.
    @Test func theCostPerRequestIsSmall() async throws {
        // In-memory transport: the chain's own cost with and without the metrics link.
        let transport = StubTransport { _, _ in Response(status: .ok, body: Array("ok".utf8)) }
        func on(_ factory: any MetricsFactory) -> ClientConfiguration {
            var on = ClientConfiguration(events: nil, redirects: nil, retry: nil, retryBudget: nil)
            on.plugins.append(.httpMetrics(HTTPClientMetrics(factory: factory, templates: ["/items/{id}"])))
            return on
        }
        let off = ClientConfiguration(events: nil, redirects: nil, retry: nil, retryBudget: nil)
        let request = try Request(url: "http://api.example.com/items/42")
        let requests = 200 + 20_000
        // A stub transport never suspends, so the loop would hold its thread to the end: it yields
        // every 1,000 requests, letting the suites running beside it go on (10× slower under TSan).
        func measure(_ configuration: ClientConfiguration) async throws -> Duration {
            let client = try Client(transport: transport, configuration: configuration)
            for _ in 0..<200 { _ = try await client.send(request) }
            var elapsed = Duration.zero
            for _ in 0..<20 {
                let start = ContinuousClock.now
                for _ in 0..<1_000 { _ = try await client.send(request) }
                elapsed += start.duration(to: .now)
                await Task.yield()
            }
            return elapsed / 20_000
        }
        let without = try await measure(off)
        let noop = try await measure(on(NOOPMetricsHandler.instance))
        let test = TestMetrics()
        let counting = CountingFactory(base: test)
        let testKit = try await measure(on(counting))
        print(
            "HTTPClientMetrics cost per request: \(noop - without) (no-op handlers), \(testKit - without) (TestMetrics); chain without it: \(without)"
        )

        #expect(counting.made.load(ordering: .relaxed) == 4)  // 1 meter + 3 recorders, for all the requests
        let active = try #require(test.meters(label: HTTPClientMetrics.activeRequestsLabel).first)
        #expect(active.lastValue == 0)
        for label in [HTTPClientMetrics.durationLabel, HTTPClientMetrics.responseBodySizeLabel] {
            let recorder = try #require(test.recorders(label: label).first, "\(label)")
            #expect(recorder.values.count == requests, "\(label)")
            #expect(labels(recorder.dimensions)["url.template"] == "/items/{id}", "\(label)")
        }
        #expect(test.recorders(label: HTTPClientMetrics.responseBodySizeLabel).first?.values.allSatisfy { $0 == 2 } == true)
    }
}

/// Counts the metric handlers made, passing everything to a base factory.
private final class CountingFactory: MetricsFactory {
    let base: TestMetrics
    let made = Atomic<Int>(0)

    init(base: TestMetrics) { self.base = base }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        made.add(1, ordering: .relaxed)
        return base.makeCounter(label: label, dimensions: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        made.add(1, ordering: .relaxed)
        return base.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        made.add(1, ordering: .relaxed)
        return base.makeMeter(label: label, dimensions: dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        made.add(1, ordering: .relaxed)
        return base.makeTimer(label: label, dimensions: dimensions)
    }

    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyMeter(_ handler: any MeterHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}
}
