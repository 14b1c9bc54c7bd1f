import Benchmark
import HTTPTypes
import Switchyard
import SwitchyardObservability
import SwitchyardTraffic

/// Forwards to `next` unchanged: the unit of chain overhead.
struct PassThrough: Interceptor {
    func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        try await next(request)
    }
}

/// Answers from memory, so only the chain is measured.
struct InMemoryTransport: Transport {
    let response = Response(status: .ok, body: [UInt8]("hello".utf8))
    func send(_ request: Request, context: ExchangeContext) async throws -> Response { response }
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

    // Each built-in alone over the in-memory transport: where the full chain's cost comes from.
    func variant(_ name: String, _ configure: (inout ClientConfiguration) -> Void) {
        var configuration = ClientConfiguration(events: nil, redirects: nil, retry: nil, retryBudget: nil)
        configure(&configuration)
        let client = try! Client(transport: InMemoryTransport(), configuration: configuration)
        Benchmark("Client.send-builtin=\(name)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try await client.send(request)) }
        }
    }
    variant("none") { _ in }
    variant("events") { $0.events = EventBus() }
    variant("timing") { $0.plugins.append(.timingStats(TimingStats())) }
    variant("headers") { $0.headers = [HeaderRules(owner: "app", rules: [.set("X-Client", "bench/1.0")])] }
    variant("logging") { $0.plugins += ClientConfiguration().benchmarkingBuiltIns().plugins.filter { $0.name == "logging" } }
    variant("validation") { $0.validation = StatusValidation(); $0.maxResponseBytes = 1 << 20 }
    variant("redirects") { $0.redirects = RedirectPolicy() }
    variant("retry") { $0.retry = RetryPolicy(); $0.retryBudget = RetryBudget() }
    variant("breaker") { $0.plugins.append(.circuitBreaker(CircuitBreaker())) }
    variant("breaker-out-of-scope") {
        $0.plugins.append(.circuitBreaker(CircuitBreaker(policy: CircuitBreakerPolicy(scope: RequestScope(tags: ["payments"])))))
    }
    variant("connectivity") { $0.plugins.append(.connectivity(ManualConnectivitySource())) }
    // The built-in chain `yard bench --chain default` runs, over the same in-memory transport.
    let builtIns = try! Client(transport: InMemoryTransport(), configuration: ClientConfiguration().benchmarkingBuiltIns())
    Benchmark("Client.send-builtins=all") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await builtIns.send(request))
        }
    }
    registerConcurrentChainBenchmarks(request: request)
    for count in [0, 1, 5, 20] {
        let client = Client(transport: InMemoryTransport(), interceptors: Array(repeating: PassThrough(), count: count))
        Benchmark("Pipeline.send-interceptors=\(count)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try await client.send(request))
            }
        }
        Benchmark("Pipeline.stream-interceptors=\(count)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try await client.stream(request))
            }
        }
    }
}
