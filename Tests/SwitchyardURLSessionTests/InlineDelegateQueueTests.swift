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

    /// A transfer at loopback speed through the transport's own session: every body piece reaches
    /// the exchange inside libcurl's write callback, and the body arrives whole and in order.
    @Test func aLoopbackDownloadArrivesWholeThroughTheInlineQueue() async throws {
        let transport = URLSessionTransport()
        #expect(transport.session.delegateQueue is InlineDelegateQueue)
        try await withURLSessionClient(transport: transport) { client, server in
            let response = try await client.stream(try Request(url: server.url("/bytes/\(64 << 20)")))
            var received = 0
            for try await chunk in response.body { received += chunk.count }
            #expect(received == 64 << 20)
        }
    }
}
#endif
