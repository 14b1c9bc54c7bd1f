import HTTPTypes
import Switchyard
import SwitchyardConformance
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@Suite(.serialized, .timeLimit(.minutes(2))) struct CurlTransportScaleTests {
    @Test func aGzipBombIsRefusedInBoundedMemory() async throws {
        try await withCurlClient { client, server in
            let outcome = try await CompressionBombProbe.run(client: client, server: server)
            print(
                "1 GiB gzip bomb, 10 MB limit, curl: \(outcome.error?.kind.rawValue ?? "accepted") after"
                    + " \(outcome.receivedBytes) bytes; resident memory grew by at most \(outcome.peakGrowth >> 10) KiB")
            #expect(outcome.error?.kind == .responseTooLarge)
            #expect(outcome.receivedBytes <= 10_000_000)
            #expect(outcome.peakGrowth < 64 << 20, "resident memory grew by \(outcome.peakGrowth >> 20) MiB")
        }
    }
}

/// The process's thread count, which every suite running alongside changes: the suite's name holds
/// `InBoundedMemory`, so `make test` runs it in its serial pass (`--no-parallel --filter InBoundedMemory`)
/// and skips it in the parallel one, where another suite's threads would come and go during the
/// measurement.
@Suite(.serialized, .timeLimit(.minutes(2))) struct CurlThreadsInBoundedMemoryTests {
    @Test func aThousandConcurrentRequestsKeepTheThreadCountConstant() async throws {
        try await withCurlClient { client, server in
            // Warm up: let the concurrency pool and the transport start every thread they will use.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<64 { group.addTask { _ = try await client.send(try Request(url: server.url("/small"))) } }
                try await group.waitForAll()
            }
            let threadsBefore = processThreadCount()
            try #require(threadsBefore > 0, "the thread count is read from /proc/self/status: without it the bound would hold trivially")
            let threadsDuring = ThreadSampler()
            let results = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<1_000 {
                    group.addTask {
                        let response = try await client.send(try Request(url: server.url("/echo?i=\(index)")))
                        threadsDuring.sample()
                        let echo = try EchoReport(response)
                        return echo.uri == "/echo?i=\(index)" ? 1 : 0
                    }
                }
                return try await group.reduce(0, +)
            }
            print("1,000 concurrent requests: \(threadsBefore) threads before, at most \(threadsDuring.maximum) during")
            #expect(results == 1_000)
            #expect(threadsDuring.maximum <= threadsBefore, "threads: \(threadsBefore) before, up to \(threadsDuring.maximum) during")
        }
    }
}

/// Keeps the highest thread count seen.
final class ThreadSampler: Sendable {
    private let highest = Lock(0)
    func sample() {
        let count = processThreadCount()
        highest.withLock { $0 = max($0, count) }
    }
    var maximum: Int { highest.withLock { $0 } }
}
