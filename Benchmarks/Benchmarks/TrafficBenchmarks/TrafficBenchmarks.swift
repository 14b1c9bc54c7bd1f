import Benchmark
import HTTPTypes
import Switchyard
import SwitchyardTraffic

// Traffic control's own cost per request (issue 14), over a transport that answers from memory, so
// only the chain is measured. Each facility registers a baseline client without it and clients with
// it on; the difference of the two per request is the figure (target ≤ 1 µs, uncontended).
//
// To add a facility: write a `register…Benchmarks()` function like `registerCoalescingBenchmarks`,
// build its clients with `trafficClient(_:)`, name the benchmarks `Traffic.<facility>-<variant>`,
// and call it from `benchmarks` below.

/// Answers from memory at once: the chain is all there is to measure.
struct InMemoryTransport: Transport {
    let response = Response(status: .ok, body: [UInt8]("hello".utf8))
    func send(_ request: Request, context: ExchangeContext) async throws -> Response { response }
}

/// A client over ``InMemoryTransport`` with no built-ins but the ones `configure` turns on.
func trafficClient(_ configure: (inout ClientConfiguration) -> Void = { _ in }) -> Client {
    var configuration = ClientConfiguration(events: nil, redirects: nil, retry: nil, retryBudget: nil)
    configure(&configuration)
    return try! Client(transport: InMemoryTransport(), configuration: configuration)
}

/// Sends `request` through `client` once per scaled iteration.
func measureSends(_ name: String, client: Client, request: Request) {
    Benchmark(name) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try await client.send(request)) }
    }
}

/// Coalescing: off (the baseline), on for an eligible request with nobody to share with (the
/// uncontended lookup: key, registry, the exchange's own task), and on for a request out of the
/// policy's scope (the scope and method checks only).
func registerCoalescingBenchmarks(request: Request) {
    measureSends("Traffic.coalescing-off", client: trafficClient(), request: request)
    measureSends("Traffic.coalescing-on-uncontended", client: trafficClient { $0.plugins.append(.coalescing(CoalescingPolicy())) },
                 request: request)
    let otherHost = CoalescingPolicy(scopes: [RequestScope(hosts: ["elsewhere.test"])])
    measureSends("Traffic.coalescing-on-out-of-scope", client: trafficClient { $0.plugins.append(.coalescing(otherHost)) },
                 request: request)
    let otherMethods = CoalescingPolicy(methods: [.head])
    measureSends("Traffic.coalescing-on-other-method", client: trafficClient { $0.plugins.append(.coalescing(otherMethods)) },
                 request: request)
    // References that explain the figures: one link that only forwards (the cost of any link), and
    // the unstructured task every shared exchange runs in (started and awaited, doing nothing).
    measureSends("Traffic.reference-passthrough-link", client: trafficClient { $0.callInterceptors = [PassThrough()] },
                 request: request)
    Benchmark("Traffic.reference-task-immediate") { benchmark in
        for _ in benchmark.scaledIterations {
            let task: Task<Int, Never>
            if #available(macOS 26.0, *) { task = Task.immediate { 1 } } else { task = Task { 1 } }
            blackHole(await task.value)
        }
    }
}

/// Answers from memory with a streamed one-chunk body, as network transports do: the limiter ties
/// its slot to such a body (a tap), which an in-memory body skips.
struct StreamingInMemoryTransport: Transport {
    func send(_ request: Request, context: ExchangeContext) async throws -> Response {
        Response(HTTPResponse(status: .ok), body: HTTPBody(OneChunk(), length: .known(5)))
    }

    struct OneChunk: AsyncSequence, Sendable {
        struct AsyncIterator: AsyncIteratorProtocol {
            var done = false
            mutating func next() async throws -> ArraySlice<UInt8>? {
                defer { done = true }
                return done ? nil : [104, 101, 108, 108, 111]
            }
        }
        func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
    }
}

/// The concurrency limiter: off, on with room (the uncontended slot: one lock, a count, and the
/// slot tied to the body), with a per-host limit (a dictionary count per host), and out of scope.
/// Over a streamed body, so the slot's release at the body's end is part of the figure.
func registerLimiterBenchmarks(request: Request) {
    func client(_ limiter: ConcurrencyLimiter?) -> Client {
        var configuration = ClientConfiguration(events: nil, redirects: nil, retry: nil, retryBudget: nil)
        configuration.plugins.append(.concurrencyLimit(limiter))
        return try! Client(transport: StreamingInMemoryTransport(), configuration: configuration)
    }
    measureSends("Traffic.limiter-off-streamed", client: client(nil), request: request)
    measureSends("Traffic.limiter-on-overall-streamed", client: client(ConcurrencyLimiter(maxExchanges: 64)),
                 request: request)
    measureSends("Traffic.limiter-on-per-host-streamed",
                 client: client(ConcurrencyLimiter(maxExchanges: 64, maxExchangesPerHost: 8)), request: request)
    measureSends("Traffic.limiter-on-out-of-scope-streamed",
                 client: client(ConcurrencyLimiter(maxExchangesPerHost: 8, scope: RequestScope(hosts: ["elsewhere.test"]))),
                 request: request)
}

/// The exchange tracker: each tracked call runs in a task of its own and is registered by id.
func registerTrackerBenchmarks(request: Request) {
    measureSends("Traffic.tracker-on", client: trafficClient { $0.plugins.append(.tracking(ExchangeTracker())) }, request: request)
}

/// Forwards to `next` unchanged.
struct PassThrough: Interceptor {
    func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        try await next(request)
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        // Retain/release counts are left out: their runtime hook crashes under Swift 6.3 on Linux
        // (ordo-one/benchmark issue 349).
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        scalingFactor: .kilo,
        maxDuration: .seconds(2)
    )
    let request = try! Request(url: "http://example.test/users/42")
    registerCoalescingBenchmarks(request: request)
    registerLimiterBenchmarks(request: request)
    registerTrackerBenchmarks(request: request)
}
