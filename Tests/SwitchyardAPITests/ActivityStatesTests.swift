import HTTPTypes
import Switchyard
import SwitchyardAPI
import SwitchyardActivity
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardTraffic
import SwitchyardTransfers
import Testing

/// Calls, downloads and paged lists report the same phases: queued behind a limit, running, and
/// waiting to retry with the attempt and the delay, as the chain's links report them.
@Suite(.timeLimit(.minutes(3))) struct ActivityStatesTests {
    /// A client configuration with a limit of one exchange per host and up to three attempts.
    static func limitedAndRetrying() -> (ClientConfiguration, ConcurrencyLimiter) {
        var configuration = ClientConfiguration()
        configuration.retry = RetryPolicy(maxAttempts: 3)
        let limiter = ConcurrencyLimiter(maxExchangesPerHost: 1)
        configuration.plugins.append(.concurrencyLimit(limiter))
        return (configuration, limiter)
    }

    /// `queued`, `running`, `waitingToRetry 2` …: a phase with its attempt.
    static func label(_ phase: ActivityPhase) -> String {
        if case .waitingToRetry(let attempt, _) = phase { return "waitingToRetry \(attempt)" }
        return phase.name
    }

    /// Holds the host's only slot with a `/gate/{key}` call until the server lets it through.
    static func holdTheSlot(_ api: APIClient, _ server: LoopbackServer, key: String) async -> CallHandle<String> {
        let holder = api.call(Endpoint<String>(.get, "/gate/\(key)", decoding: .text).query("id", "holder"))
        #expect(await eventually { server.gate(key: key).held == 1 })
        return holder
    }

    @Test(arguments: TransportKind.allCases)
    func aCallIsQueuedBehindALimitThenRunsThenWaitsToRetry(kind: TransportKind) async throws {
        let (configuration, limiter) = Self.limitedAndRetrying()
        try await withAPI(kind, configuration: configuration) { api, server in
            let key = "call-states-\(kind)"
            let holder = await Self.holdTheSlot(api, server, key: key)
            // The first attempt fails with 503 (Retry-After: 0), the second succeeds.
            let handle = api.prepare(Endpoint<String>(.get, "/flaky/\(key)/1", decoding: .text))
            let states = handle.states
            handle.start()
            #expect(await eventually { limiter.queued == 1 })
            #expect(handle.state.name == "queued")
            server.release(key: key)
            let value = try await handle.value
            #expect(value == "ok after 1\n")
            _ = await holder.result()
            var seen: [String] = []
            for await state in states { seen.append(Self.label(state.phase)) }
            #expect(seen == ["notStarted", "running", "queued", "running", "waitingToRetry 2", "running", "succeeded"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aDownloadIsQueuedBehindALimitThenRunsThenWaitsToRetry(kind: TransportKind) async throws {
        let (configuration, limiter) = Self.limitedAndRetrying()
        try await withAPI(kind, configuration: configuration) { api, server in
            let key = "download-states-\(kind)"
            let holder = await Self.holdTheSlot(api, server, key: key)
            let path = try makeTemporaryDirectory() + "/flaky.txt"
            let download = api.client.download(try Request(url: server.url("/flaky/\(key)/1")), to: path)
            let states = download.states
            download.start()
            #expect(await eventually { limiter.queued == 1 })
            #expect(download.state.name == "queued")
            server.release(key: key)
            let result = try await download.result()
            #expect(result.byteCount == 11)
            _ = await holder.result()
            var seen: [String] = []
            for await state in states { seen.append(Self.label(state.phase)) }
            #expect(seen == ["notStarted", "running", "queued", "running", "waitingToRetry 2", "running", "succeeded"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aPagedListIsQueuedThenRunsThenWaitsToRetryWithItsItems(kind: TransportKind) async throws {
        let (configuration, limiter) = Self.limitedAndRetrying()
        try await withAPI(kind, configuration: configuration) { api, server in
            let key = "page-states-\(kind)"
            let layout = JSONPageLayout(items: "data.items", id: "id", hasNext: "data.has_next", sizeParameter: "size")
            // Page 2's first request fails with 500 and is retried.
            let source = EndpointPageSource<Headline>(api: api, path: "/pages/\(key)?fail=2", layout: layout)
            let loader = PageLoader(source: source, identity: { $0.id }, rule: layout.hasNextRule, pageSize: 10)
            #expect(await loader.loadFirst().outcome.name == "succeeded")
            let states = await loader.states()
            let holder = await Self.holdTheSlot(api, server, key: key)
            let next = Task { await loader.loadNext() }
            #expect(await eventually { limiter.queued == 1 })
            server.release(key: key)
            #expect(await next.value.outcome.name == "succeeded")
            _ = await holder.result()
            var seen: [String] = []
            for await state in states {
                seen.append("\(Self.label(state.phase)) \(state.items.count)")
                if state.phase.isFinal, seen.count > 1 { break }
            }
            #expect(
                seen == [
                    "succeeded 10", "running 10", "queued 10", "running 10", "waitingToRetry 2 10", "running 10",
                    "succeeded 20"
                ])
        }
    }
}

/// A paged list's item in the `/pages` lists.
struct Headline: Decodable, Sendable {
    let id: Int
    let title: String
}
