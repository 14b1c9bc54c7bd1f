#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking
import Switchyard
import SwitchyardCore
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@testable import SwitchyardURLSession

/// The Linux delegate queue: callbacks run at once on the submitting thread, marked as callbacks.
@Suite struct InlineDelegateQueueTests {
    @Test func aCallbackRunsOnTheSubmittingThreadBeforeAddOperationReturns() {
        let queue = InlineDelegateQueue()
        let ran = Lock<[Int]>([])
        let submitter = pthread_self()
        let threads = Lock<[pthread_t]>([])
        for index in 0..<5 {
            queue.addOperation {
                threads.withLock { $0.append(pthread_self()) }
                ran.withLock { $0.append(index) }
            }
            #expect(ran.withLock { $0.count } == index + 1)
        }
        #expect(ran.withLock { $0 } == Array(0..<5))
        #expect(threads.withLock { $0 }.allSatisfy { pthread_equal($0, submitter) != 0 })
    }

    @Test func aCallbackIsMarkedWhileItRunsAndOnlyThen() {
        let queue = InlineDelegateQueue()
        let seen = Lock<[Bool]>([])
        #expect(!InlineDelegateQueue.isRunningCallback)
        queue.addOperation {
            seen.withLock { $0.append(InlineDelegateQueue.isRunningCallback) }
            // FoundationNetworking submits from inside a callback too (e.g. `cancel()` from a
            // callback's thread): the mark survives the inner callback's end.
            queue.addOperation { seen.withLock { $0.append(InlineDelegateQueue.isRunningCallback) } }
            seen.withLock { $0.append(InlineDelegateQueue.isRunningCallback) }
        }
        #expect(seen.withLock { $0 } == [true, true, true])
        #expect(!InlineDelegateQueue.isRunningCallback)
    }

    /// A transfer at loopback speed through the transport's own session, whose delegate queue is the
    /// inline one: every byte arrives, in the server's order (a callback run out of order or twice
    /// would break the pattern).
    @Test func aLoopbackDownloadArrivesWholeAndInOrderThroughTheInlineQueue() async throws {
        let transport = URLSessionTransport()
        #expect(transport.session.delegateQueue is InlineDelegateQueue)
        try await withURLSessionClient(transport: transport) { client, server in
            let size = 2 << 20  // 128 pieces of 16 KiB
            let response = try await client.stream(try Request(url: server.url("/bytes/\(size)")))
            var received = 0
            var mismatches = 0
            for try await chunk in response.body {
                for (offset, byte) in chunk.enumerated() where byte != expectedPatternByte(at: received + offset) {
                    mismatches += 1
                }
                received += chunk.count
            }
            #expect(received == size)
            #expect(mismatches == 0)
        }
    }
}
#endif
