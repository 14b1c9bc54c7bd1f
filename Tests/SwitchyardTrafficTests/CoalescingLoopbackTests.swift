import Foundation
import HTTPTypes
import Switchyard
import SwitchyardObservability
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardTraffic
import Synchronization
import Testing

/// Coalescing of identical in-flight requests against the embedded server, on every transport.
///
/// The server's `/hold/{key}/{n}` route answers only when the test releases `key`: each test
/// waits for the callers to have joined (their `coalesced` events), never for time to pass.
@Suite(.timeLimit(.minutes(3)))
struct CoalescingLoopbackTests {
    static let mebibyte = 1 << 20

    static func withCoalescingClient<T>(
        _ kind: TransportKind, policy: CoalescingPolicy? = CoalescingPolicy(), stats: TimingStats? = nil,
        _ body: (Client, LoopbackServer, CollectedEvents) async throws -> T
    ) async throws -> T {
        let bus = EventBus()
        let events = CollectedEvents(bus)
        var configuration = ClientConfiguration(events: bus)
        if let policy { configuration.plugins.append(.coalescing(policy)) }
        if let stats { configuration.plugins.append(.timingStats(stats)) }
        return try await withLoopbackClient(kind, configuration: configuration) { client, server in
            try await body(client, server, events)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aHundredIdenticalGETsReachTheServerOnceAndEveryCallerReadsTheWholeBody(_ kind: TransportKind) async throws {
        let stats = TimingStats()
        try await Self.withCoalescingClient(kind, stats: stats) { client, server, events in
            let path = "/hold/hundred/\(Self.mebibyte)"
            let request = try Request(url: server.url(path))
            let results = try await withThrowingTaskGroup(of: (bytes: Int, coalescedWith: UInt64?).self) { group in
                for _ in 0..<100 {
                    group.addTask {
                        let response = try await client.stream(request)
                        return (try await readPattern(response.body), response.context.coalescedWith)
                    }
                }
                #expect(await eventually { events.count("coalesced") == 99 && server.requestCount(path: path) == 1 })
                server.release(key: "hundred")
                var results: [(bytes: Int, coalescedWith: UInt64?)] = []
                for try await result in group { results.append(result) }
                return results
            }
            #expect(results.count == 100)
            #expect(results.allSatisfy { $0.bytes == Self.mebibyte })
            #expect(server.requestCount(path: path) == 1)
            // One leader; 99 followers, all marked with the leader's exchange id.
            #expect(results.filter { $0.coalescedWith == nil }.count == 1)
            #expect(Set(results.compactMap(\.coalescedWith)).count == 1)
            // Every caller publishes its own lifecycle; the followers' end events are marked.
            #expect(await eventually { events.count("succeeded") == 100 })
            #expect(events.count("started") == 100)
            #expect(events.all.filter { $0.kind.name == "succeeded" && $0.coalescedWith != nil }.count == 99)
            // Timing statistics count every caller, the followers also as coalesced.
            #expect(await eventually { stats.snapshot().endpoints.first?.count == 100 })
            let endpoint = try #require(stats.snapshot().endpoints.first)
            #expect(endpoint.coalesced == 99)
            #expect(endpoint.phases.first { $0.name == "ttfb" }?.count == 100)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func cancellingNinetyNineCallersLeavesTheLastOnesResponseIntact(_ kind: TransportKind) async throws {
        try await Self.withCoalescingClient(kind) { client, server, events in
            let path = "/hold/ninety-nine/\(Self.mebibyte)"
            var tasks: [Task<Int, any Error>] = []
            for caller in 0..<100 {
                var request = try Request(url: server.url(path))
                request.options.userInfo = ["caller": "\(caller)"]
                tasks.append(Task { try await readPattern(try await client.stream(request).body) })
            }
            #expect(await eventually { events.count("coalesced") == 99 })
            // The leader runs the shared exchange: cancel it and 98 followers, keep one follower.
            let leaderID = try #require(events.all.lazy.compactMap(\.coalescedLeader).first)
            let leader = events.all.first { $0.exchangeID == leaderID && $0.kind.name == "started" }?.userInfo["caller"]
            let survivor = try #require((0..<100).first { "\($0)" != leader })
            for caller in 0..<100 where caller != survivor { tasks[caller].cancel() }
            #expect(await eventually { events.count("cancelled") == 99 })
            server.release(key: "ninety-nine")

            #expect(try await tasks[survivor].value == Self.mebibyte)
            for caller in 0..<100 where caller != survivor {
                let error = await #expect(throws: SwitchyardError.self) { try await tasks[caller].value }
                #expect(error?.kind == .cancelled)
            }
            #expect(server.requestCount(path: path) == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func cancellingEveryCallerBeforeTheHeadClosesTheConnection(_ kind: TransportKind) async throws {
        try await Self.withCoalescingClient(kind) { client, server, events in
            let tag = "before-head-\(kind)"
            let request = try Request(url: server.url("/hold/before-head/\(Self.mebibyte)?tag=\(tag)"))
            let tasks = (0..<10).map { _ in Task { try await client.stream(request) } }
            #expect(
                await eventually { events.count("coalesced") == 9 && server.requestCount(path: "/hold/before-head/\(Self.mebibyte)") == 1 })
            for task in tasks { task.cancel() }
            #expect(await server.waitForDisconnect(tag: tag, timeout: .seconds(60)))
            for task in tasks {
                let error = await #expect(throws: SwitchyardError.self) { try await task.value }
                #expect(error?.kind == .cancelled)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func cancellingEveryReaderMidBodyClosesTheConnection(_ kind: TransportKind) async throws {
        try await Self.withCoalescingClient(kind) { client, server, events in
            let tag = "mid-body-\(kind)"
            // The server stops sending after 1 MiB and keeps the connection open: only the client closes it.
            let request = try Request(url: server.url("/hold/mid-body/\(64 * Self.mebibyte)?stall_at=\(Self.mebibyte)&tag=\(tag)"))
            let reading = Counter()
            let tasks = (0..<5).map { _ in
                Task {
                    let response = try await client.stream(request)
                    var chunks = response.body.makeAsyncIterator()
                    _ = try await chunks.next()
                    reading.increment()
                    try await Task.sleep(for: .seconds(3600))  // ends when cancelled, dropping the body
                }
            }
            #expect(await eventually { events.count("coalesced") == 4 })
            server.release(key: "mid-body")
            #expect(await eventually { reading.value == 5 })
            for task in tasks { task.cancel() }
            #expect(await server.waitForDisconnect(tag: tag, timeout: .seconds(60)))
            #expect(server.requestCount(path: "/hold/mid-body/\(64 * Self.mebibyte)") == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func otherCredentialsPostsAndOptedOutRequestsGetExchangesOfTheirOwn(_ kind: TransportKind) async throws {
        try await Self.withCoalescingClient(kind) { client, server, events in
            let path = "/hold/distinct/100"
            let url = server.url(path)
            var optedOut = try Request(url: url)
            optedOut.options.coalescing = .never
            let requests = [
                try Request(url: url, headers: ["Authorization": "Bearer alice"]),
                try Request(url: url, headers: ["Authorization": "Bearer bob"]),
                try Request(url: url),
                optedOut,
                try Request(method: .post, url: url),
                try Request(method: .post, url: url)
            ]
            let tasks = requests.map { request in Task { try await client.send(request) } }
            #expect(await eventually { server.requestCount(path: path) == 6 })
            server.release(key: "distinct")
            for task in tasks { #expect(try await task.value.body.count == 100) }
            #expect(events.count("coalesced") == 0)
            #expect(server.requestCount(path: path) == 6)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aReaderThatFallsTooFarBehindFailsWhileTheOtherCompletes(_ kind: TransportKind) async throws {
        let policy = CoalescingPolicy(maxBufferedBytesPerCaller: 64 << 10)
        try await Self.withCoalescingClient(kind, policy: policy) { client, server, events in
            let request = try Request(url: server.url("/hold/slow/\(Self.mebibyte)"))
            let slow = Task { try await client.stream(request) }
            // One reader that keeps up: two would each have to stay within 64 KiB of the other,
            // which is up to the scheduler (a descheduled one failed, as it should, now and then).
            let fast = Task { try await readPattern(try await client.stream(request).body) }
            #expect(await eventually { events.count("coalesced") == 1 })
            server.release(key: "slow")
            #expect(try await fast.value == Self.mebibyte)

            let response = try await slow.value
            let error = await #expect(throws: SwitchyardError.self) { try await readPattern(response.body) }
            #expect(error?.kind == .coalescedReaderTooSlow)
            #expect(error?.message.contains("65536 unread bytes") == true)
            #expect(server.requestCount(path: "/hold/slow/\(Self.mebibyte)") == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func withoutAPolicyIdenticalRequestsEachReachTheServer(_ kind: TransportKind) async throws {
        try await Self.withCoalescingClient(kind, policy: nil) { client, server, events in
            #expect(!client.chain.contains { $0.name == "CoalescingInterceptor" })
            let path = "/hold/off/1000"
            let request = try Request(url: server.url(path))
            let tasks = (0..<2).map { _ in Task { try await client.send(request) } }
            #expect(await eventually { server.requestCount(path: path) == 2 })
            server.release(key: "off")
            for task in tasks { #expect(try await task.value.body.count == 1000) }
            #expect(events.count("coalesced") == 0)
        }
    }
}

// MARK: - Helpers

/// The loopback server's byte pattern, long enough to compare any chunk of up to 1 MiB at any phase.
private let pattern: [UInt8] = (0..<((1 << 20) + 251)).map { UInt8($0 % 251) }

/// Reads `body` to its end and checks every byte against the server's pattern.
/// - Returns: The number of bytes read, or -1 at the first byte that differs.
private func readPattern(_ body: HTTPBody) async throws -> Int {
    var offset = 0
    for try await chunk in body {
        let matches = chunk.withUnsafeBufferPointer { bytes in
            pattern.withUnsafeBufferPointer { expected in
                var start = 0
                while start < bytes.count {
                    let length = min(bytes.count - start, 1 << 20)
                    let phase = (offset + start) % 251
                    guard memcmp(expected.baseAddress! + phase, bytes.baseAddress! + start, length) == 0 else { return false }
                    start += length
                }
                return true
            }
        }
        guard matches else { return -1 }
        offset += chunk.count
    }
    return offset
}

/// A count shared by tasks.
private final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func increment() { count.add(1, ordering: .relaxed) }
}

extension ExchangeEvent {
    /// The leader's id of a `coalesced` event.
    fileprivate var coalescedLeader: UInt64? {
        plugin(Coalesced.self)?.leader
    }
}
