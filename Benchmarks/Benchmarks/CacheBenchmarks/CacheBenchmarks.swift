import Benchmark
import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCache
import SwitchyardCurl
import SwitchyardTestServer

// A cache hit served from memory and from disk versus a network round trip on loopback, for a
// 1 KiB body. Targets: memory hit ≤ 5 µs, disk hit ≤ 50 µs. The hits go through a client whose only
// link is the cache interceptor, so the figure is the cache's own cost plus the bare chain's.

/// Answers every request with a 1 KiB body that may be stored for an hour (used once, to fill the cache).
struct StorableTransport: Transport {
    let body = [UInt8](repeating: UInt8(ascii: "x"), count: 1_024)
    func send(_ request: Request, context: ExchangeContext) async throws -> Response {
        Response(status: .ok, headerFields: [.cacheControl: "max-age=3600", .contentType: "text/plain"], body: body)
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        // Retain/release counts are left out: their runtime hook crashes under Swift 6.3 on Linux
        // (ordo-one/benchmark issue 349).
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        scalingFactor: .kilo,
        maxDuration: .seconds(3)
    )
    let request = try! Request(url: "http://example.test/items/42")

    func hit(_ name: String, store: any CacheStore) {
        let client = Client(transport: StorableTransport(), interceptors: [CacheInterceptor(cache: HTTPCache(store: store))])
        Benchmark("Cache.hit-\(name)-1KiB") { benchmark in
            _ = try await client.send(request)  // fills the cache
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let response = try await client.send(request)
                precondition(response.context.provenance.source == .cache)
                blackHole(response)
            }
            benchmark.stopMeasurement()
        }
    }
    hit("memory", store: MemoryCacheStore())
    let directory = NSTemporaryDirectory() + "switchyard-cache-bench-\(getpid())"
    hit("disk", store: try! DiskCacheStore(directory: directory))

    Benchmark("Cache.network-loopback-curl-1KiB", configuration: .init(scalingFactor: .one)) { benchmark in
        let server = try await LoopbackServer.start()
        let transport = CurlTransport()
        let client = Client(transport: transport)
        let request = try Request(url: server.url("/bytes/1024"))
        _ = try await client.send(request)  // the connection is open and reused
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await client.send(request))
        }
        benchmark.stopMeasurement()
        try await transport.shutdown()
        try await server.shutdown()
    }
}
