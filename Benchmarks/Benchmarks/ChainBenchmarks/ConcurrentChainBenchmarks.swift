import Benchmark
import Switchyard
import SwitchyardObservability

/// How many tasks send through one client at once in the concurrent benchmarks: the `c=64` of the
/// transport runs (`yard bench --concurrency 64`), without the network.
let concurrentSenders = 64

/// The chain's cost when many tasks share one client, over the in-memory transport: shared state
/// (event bus, timing statistics, retry budget) is contended here as it is under real load, which the
/// single-task benchmarks cannot show. Each iteration is one request; the iterations of a run are
/// spread over ``concurrentSenders`` tasks.
func registerConcurrentChainBenchmarks(request: Request) {
    let clients: [(String, Client)] = [
        ("bare", Client(transport: InMemoryTransport())),
        ("builtins=all", try! Client(transport: InMemoryTransport(), configuration: ClientConfiguration().benchmarkingBuiltIns())),
    ]
    for (name, client) in clients {
        Benchmark("Client.send-tasks=\(concurrentSenders)-\(name)") { benchmark in
            let total = benchmark.scaledIterations.count
            try await withThrowingTaskGroup(of: Void.self) { group in
                for sender in 0..<concurrentSenders {
                    group.addTask {
                        for _ in stride(from: sender, to: total, by: concurrentSenders) {
                            blackHole(try await client.send(request))
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
    }
}
