#if canImport(FoundationNetworking)
import Dispatch
import Foundation
import FoundationNetworking
import Switchyard
import SwitchyardCore
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@testable import SwitchyardURLSession

/// The Linux delegate queue: order, the bound on pending callbacks, and the way out when a callback
/// never finishes (what would otherwise be a deadlock with the session's work queue).
@Suite(.serialized, .timeLimit(.minutes(2))) struct BoundedDelegateQueueTests {
    /// Submits `count` callbacks from a thread of its own (as FoundationNetworking's work queue
    /// does); each appends its index to `ran` after `firstWaitsFor` (only the first one waits).
    private func submit(
        _ count: Int, to queue: BoundedDelegateQueue, ran: Lock<[Int]>, firstWaitsFor gate: DispatchSemaphore,
        submitted: Lock<Int>
    ) {
        Thread.detachNewThread {
            for index in 0..<count {
                queue.addOperation {
                    if index == 0 { gate.wait() }
                    ran.withLock { $0.append(index) }
                }
                submitted.withLock { $0 += 1 }
            }
        }
    }

    @Test func aSubmitterWaitsWhileTheLimitIsPendingAndCallbacksRunInOrder() async throws {
        let queue = BoundedDelegateQueue(limit: 4, stallTimeout: 60)
        let ran = Lock<[Int]>([])
        let gate = DispatchSemaphore(value: 0)
        let submitted = Lock(0)
        submit(10, to: queue, ran: ran, firstWaitsFor: gate, submitted: submitted)
        // The first callback blocks, so four are pending and the fifth submission waits.
        #expect(await eventually(timeout: .seconds(30)) { submitted.withLock { $0 } == 4 })
        try await Task.sleep(for: .milliseconds(100))
        #expect(submitted.withLock { $0 } == 4)
        #expect(queue.statistics.pending == 4)
        gate.signal()
        #expect(await eventually(timeout: .seconds(30)) { ran.withLock { $0.count } == 10 })
        #expect(submitted.withLock { $0 } == 10)
        #expect(ran.withLock { $0 } == Array(0..<10))
        #expect(queue.statistics.highWater == 4)
        #expect(queue.statistics.stalls == 0)
    }

    @Test func aSubmitterStopsWaitingForAQueueThatFinishesNothing() async throws {
        let queue = BoundedDelegateQueue(limit: 2, stallTimeout: 0.05)
        let ran = Lock<[Int]>([])
        let gate = DispatchSemaphore(value: 0)
        let submitted = Lock(0)
        // The first callback never finishes until the end: a deadlocked callback. Every submission
        // still returns, after waiting once for the stall timeout.
        submit(6, to: queue, ran: ran, firstWaitsFor: gate, submitted: submitted)
        #expect(await eventually(timeout: .seconds(30)) { submitted.withLock { $0 } == 6 })
        #expect(queue.statistics.stalls == 1)
        #expect(ran.withLock { $0 }.isEmpty)
        gate.signal()
        #expect(await eventually(timeout: .seconds(30)) { ran.withLock { $0.count } == 6 })
        #expect(ran.withLock { $0 } == Array(0..<6))
    }

    /// A transfer at loopback speed: FoundationNetworking's work queue waits for the delegate, so
    /// no more than the limit of pieces ever waits for it (before, up to thousands did).
    @Test func aLoopbackDownloadNeverQueuesMoreThanTheLimitForTheDelegate() async throws {
        let transport = URLSessionTransport()
        let queue = try #require(transport.session.delegateQueue as? BoundedDelegateQueue)
        try await withURLSessionClient(transport: transport) { client, server in
            let response = try await client.stream(try Request(url: server.url("/bytes/\(64 << 20)")))
            var received = 0
            for try await chunk in response.body { received += chunk.count }
            #expect(received == 64 << 20)
        }
        let statistics = queue.statistics
        print("64 MiB over URLSession: at most \(statistics.highWater) callbacks pending, \(statistics.stalls) stalls")
        // A stall (the queue finished nothing for the stall timeout, e.g. on a starved machine) lets
        // the submitter go past the limit until the queue moves again; without one the bound is exact.
        #expect(statistics.highWater <= queue.limit || statistics.stalls > 0)
    }
}
#endif
