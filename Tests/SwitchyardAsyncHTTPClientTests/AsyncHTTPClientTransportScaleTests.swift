import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardConformance
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@Suite(.serialized, .timeLimit(.minutes(2))) struct AsyncHTTPClientTransportScaleTests {
    @Test func a64MiBDownloadStreamsInBoundedMemory() async throws {
        try await withAHCClient { client, server in
            let size = 64 << 20
            let response = try await client.stream(try Request(url: server.url("/bytes/\(size)")))
            #expect(response.body.length == .known(Int64(size)))
            let baseline = residentMemoryBytes()
            var peakGrowth = 0
            var received = 0
            var mismatches = 0
            var chunks = 0
            for try await chunk in response.body {
                for (offset, byte) in chunk.enumerated() where byte != expectedPatternByte(at: received + offset) {
                    mismatches += 1
                }
                received += chunk.count
                chunks += 1
                if chunks % 16 == 0 { peakGrowth = max(peakGrowth, residentMemoryBytes() - baseline) }
            }
            print(
                "AHC 64 MiB streamed download: \(chunks) chunks,"
                    + " resident memory grew by at most \(peakGrowth >> 10) KiB")
            #expect(received == size)
            #expect(mismatches == 0)
            #expect(response.context.timings.total != nil)
            // The body is 64 MiB; buffering it would grow RSS by at least that much.
            #expect(peakGrowth < 32 << 20, "resident memory grew by \(peakGrowth >> 20) MiB")
        }
    }

    @Test func sixtyFourRequestsRunConcurrentlyOnSixtyFourConnections() async throws {
        try await withAHCClient { client, server in
            let count = 64
            let tasks = (0..<count).map { index in
                Task { try await client.send(try Request(url: server.url("/stall?tag=concurrent-\(index)"))) }
            }
            // AsyncHTTPClient's default of 8 connections per host would leave 56 requests queued here forever.
            let allArrived = await eventually(timeout: .seconds(30)) { server.requestCount(path: "/stall") == count }
            #expect(allArrived, "only \(server.requestCount(path: "/stall")) of \(count) requests reached the server")
            for task in tasks { task.cancel() }
            for task in tasks {
                guard case .failure(let error as SwitchyardError) = await task.result else {
                    Issue.record("a stalled request did not fail")
                    continue
                }
                #expect(error.kind == .cancelled)
            }
            for index in 0..<count {
                #expect(await server.waitForDisconnect(tag: "concurrent-\(index)", timeout: .seconds(60)))
            }
        }
    }

    @Test func sixtyFourConcurrentExchangesAllSucceed() async throws {
        try await withAHCClient { client, server in
            let total = 640
            let matches = try await withThrowingTaskGroup(of: Int.self) { group in
                var matches = 0
                for index in 0..<total {
                    // Keep 64 exchanges in flight.
                    if index >= 64, let match = try await group.next() { matches += match }
                    group.addTask {
                        let response = try await client.send(try Request(url: server.url("/echo?i=\(index)")))
                        return try EchoReport(response).uri == "/echo?i=\(index)" ? 1 : 0
                    }
                }
                for try await match in group { matches += match }
                return matches
            }
            #expect(matches == total)
        }
    }

    @Test func aGzipBombIsRefusedInBoundedMemory() async throws {
        try await withAHCClient { client, server in
            let outcome = try await CompressionBombProbe.run(client: client, server: server)
            print(
                "1 GiB gzip bomb, 10 MB limit, AsyncHTTPClient: \(outcome.error?.kind.rawValue ?? "accepted") after"
                    + " \(outcome.receivedBytes) bytes; resident memory grew by at most \(outcome.peakGrowth >> 10) KiB")
            #expect(outcome.error?.kind == .responseTooLarge)
            #expect(outcome.receivedBytes <= 10_000_000)
            #expect(outcome.peakGrowth < 64 << 20, "resident memory grew by \(outcome.peakGrowth >> 20) MiB")
        }
    }
}
