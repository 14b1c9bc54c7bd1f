import Benchmark
import HTTPTypes
import Switchyard

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
    measureSends("Traffic.coalescing-on-uncontended", client: trafficClient { $0.coalescing = CoalescingPolicy() },
                 request: request)
    let otherHost = CoalescingPolicy(scopes: [RequestScope(hosts: ["elsewhere.test"])])
    measureSends("Traffic.coalescing-on-out-of-scope", client: trafficClient { $0.coalescing = otherHost },
                 request: request)
    let otherMethods = CoalescingPolicy(methods: [.head])
    measureSends("Traffic.coalescing-on-other-method", client: trafficClient { $0.coalescing = otherMethods },
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
}
