import Foundation
import HTTPTypes
import Switchyard
import SwitchyardConformance
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import Synchronization
import Testing

/// The curl transport's loop thread as a task executor (`Transport.taskExecutor`): tasks that prefer
/// it run their chain and read their bodies on that thread, and nothing is lost at shutdown.
@Suite(.timeLimit(.minutes(2))) struct CurlTaskExecutorTests {
    /// The thread running the caller.
    static func currentThread() -> UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }

    @Test func tasksThatPreferTheLoopRunTheirChainAndBodiesOnIt() async throws {
        try await withLoopbackServer { server in
            let transport = CurlTransport()
            let executor = try #require(transport.taskExecutor)
            let client = Client(transport: transport)
            let loopThread = await Task(executorPreference: executor) { Self.currentThread() }.value
            let elsewhere = await Task { Self.currentThread() }.value
            #expect(loopThread != elsewhere)
            let threads = try await withThrowingTaskGroup(of: [UInt].self) { group in
                for _ in 0..<8 {
                    group.addTask(executorPreference: executor) {
                        var seen: [UInt] = []
                        for _ in 0..<25 {
                            let response = try await client.send(try Request(url: server.url("/small")))
                            seen.append(Self.currentThread())
                            #expect(response.head.status == .ok)
                            #expect(response.body == Array("hello, world\n".utf8))
                        }
                        return seen
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(threads.count == 200)
            #expect(Set(threads) == [loopThread])
            try await transport.shutdown()
        }
    }

    @Test func aTaskOnTheLoopIsCancelledAndItsConnectionClosed() async throws {
        try await withLoopbackServer { server in
            let transport = CurlTransport()
            let client = Client(transport: transport)
            let task = Task(executorPreference: transport.taskExecutor) {
                try await client.send(try Request(url: server.url("/hold/executor-cancel/100?tag=executor-cancel")))
            }
            while server.gate(key: "executor-cancel").held == 0 { try await Task.sleep(for: .milliseconds(5)) }
            task.cancel()
            do {
                _ = try await task.value
                Issue.record("a cancelled request succeeded")
            } catch {
                #expect((error as? SwitchyardError)?.kind == .cancelled, "\(error)")
            }
            #expect(await server.waitForDisconnect(tag: "executor-cancel", timeout: .seconds(30)))
            server.release(key: "executor-cancel")
            try await transport.shutdown()
        }
    }

    @Test func aTaskOnTheLoopFailsAtItsDeadlineAndItsConnectionCloses() async throws {
        try await withLoopbackServer { server in
            let transport = CurlTransport()
            let client = Client(transport: transport)
            var request = try Request(url: server.url("/hold/executor-deadline/100?tag=executor-deadline"))
            request.options.timeout = .milliseconds(300)
            let outcome = await Task(executorPreference: transport.taskExecutor) { () -> SwitchyardError? in
                await failure(of: client, request)
            }.value
            // The server holds the request until released, which this test does only afterwards: only
            // the deadline can have ended the exchange, and the transport closed the connection for it.
            #expect(outcome?.kind == .timeout, "\(String(describing: outcome))")
            #expect(await server.waitForDisconnect(tag: "executor-deadline", timeout: .seconds(30)))
            server.release(key: "executor-deadline")
            try await transport.shutdown()
        }
    }

    @Test func aTaskThatKeepsYieldingOnTheLoopDoesNotStarveItsTransfers() async throws {
        try await withLoopbackServer { server in
            let transport = CurlTransport()
            let executor = try #require(transport.taskExecutor)
            let client = Client(transport: transport)
            let loopThread = await Task(executorPreference: executor) { Self.currentThread() }.value
            let stop = Atomic<Bool>(false)
            // Never suspends on I/O: it only yields, so the loop always has a job queued. Jobs and
            // libcurl's work take turns on the loop thread; the requests below finish regardless.
            let spinner = Task(executorPreference: executor) { () -> (turns: Int, threads: Set<UInt>) in
                var turns = 0
                var threads: Set<UInt> = []
                while !stop.load(ordering: .relaxed) {
                    threads.insert(Self.currentThread())
                    turns += 1
                    await Task.yield()
                }
                return (turns, threads)
            }
            let statuses = try await withThrowingTaskGroup(of: [HTTPResponse.Status].self) { group in
                for _ in 0..<4 {
                    group.addTask(executorPreference: executor) {
                        var statuses: [HTTPResponse.Status] = []
                        for _ in 0..<25 { statuses.append(try await client.send(try Request(url: server.url("/small"))).head.status) }
                        return statuses
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            stop.store(true, ordering: .relaxed)
            let spun = await spinner.value
            #expect(statuses.count == 100)
            #expect(statuses.allSatisfy { $0 == .ok })
            #expect(spun.turns > 0)
            #expect(spun.threads == [loopThread])
            try await transport.shutdown()
        }
    }

    @Test func afterShutdownTasksThatPreferTheLoopStillRunAndRequestsFailTyped() async throws {
        let transport = CurlTransport()
        let executor = try #require(transport.taskExecutor)
        try await transport.shutdown()
        let client = Client(transport: transport)
        let request = try Request(url: "http://127.0.0.1:9/")
        let outcome = await Task(executorPreference: executor) { () -> SwitchyardError? in
            await Task.yield()
            return await failure(of: client, request)
        }.value
        #expect(outcome?.kind == .transport, "\(String(describing: outcome))")
    }

    @Test func aWrappingTransportOffersTheWrappedExecutor() async throws {
        let transport = CurlTransport()
        let probed = ProbedTransport(transport, probe: SuspensionProbe())
        let executor = try #require(transport.taskExecutor)
        let forwarded = try #require(probed.taskExecutor)
        let same = ObjectIdentifier(forwarded as AnyObject) == ObjectIdentifier(executor as AnyObject)
        #expect(same)
        let closureExecutor = ClosureTransport { _, _ in Response(status: .ok) }.taskExecutor
        #expect(closureExecutor == nil)
        try await transport.shutdown()
    }
}
