import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCache
import SwitchyardCurl
import SwitchyardPostgres
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// An HTTP cache shared through PostgreSQL by clients that each stand for a process (their own
/// `HTTPCache`, store and pool); the multi-process versions are in `YardTests`.
@Suite struct SharedCacheTests {
    /// A client whose cache is the fleet's store `name`, and its collected events.
    static func client(_ shared: PostgresSharedState, name: String, maxBytes: Int = 1 << 30) throws -> (Client, CollectedEvents) {
        var configuration = CacheConfiguration()
        configuration.maxEntryBytes = 64 << 20
        let cache = HTTPCache(store: PostgresCacheStore(shared: shared, name: name, maxBytes: maxBytes), configuration: configuration)
        let bus = EventBus()
        let client = try Client(
            transport: CurlTransport(), configuration: ClientConfiguration(events: bus, retry: nil, plugins: [.cache(cache)]))
        return (client, CollectedEvents(bus))
    }

    @Test(arguments: [100, 3_000_000])
    func aResponseStoredByOneProcessIsAHitInAnother(bytes: Int) async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let name = PostgresTestDatabase.uniqueKey("hit")
        let (sharedA, sharedB) = (try PostgresTestDatabase.shared(), try PostgresTestDatabase.shared())
        let (clientA, _) = try Self.client(sharedA, name: name)
        let (clientB, _) = try Self.client(sharedB, name: name)
        let url = server.url("/cache/\(name)?max_age=600&bytes=\(bytes)")
        let first = try await clientA.send(try Request(url: url))
        #expect(first.context.provenance == .network)
        // The entry is committed when A has read the body: then B finds it, whole.
        let second = try await clientB.send(try Request(url: url))
        #expect(second.context.provenance.source == .cache)
        #expect(second.body == first.body)
        #expect(second.body.count == bytes)
        #expect(second.head.headerFields[HTTPField.Name("X-Request-Number")!] == "1")
        #expect(server.requestCount(path: "/cache/\(name)") == 1)
        await sharedA.shutdown()
        await sharedB.shutdown()
    }

    @Test(arguments: [100, 3_000_000])
    func aNotModifiedAnswerRefreshesTheFleetsEntryAndKeepsItsBody(bytes: Int) async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let name = PostgresTestDatabase.uniqueKey("revalidate")
        let (sharedA, sharedB) = (try PostgresTestDatabase.shared(), try PostgresTestDatabase.shared())
        let (clientA, _) = try Self.client(sharedA, name: name)
        let (clientB, _) = try Self.client(sharedB, name: name)
        // Stale at once, with a validator: every later request is a conditional one, answered 304.
        let url = server.url("/cache/\(name)?max_age=0&etag=v1&bytes=\(bytes)")
        let first = try await clientA.send(try Request(url: url))
        #expect(first.context.provenance == .network)
        for client in [clientB, clientA, clientB] {
            let again = try await client.send(try Request(url: url))
            #expect(again.context.provenance.source == .revalidated)
            #expect(again.body == first.body)
        }
        let number = HTTPField.Name("X-Request-Number")!
        // The stored head is the last 304's: the fourth request's number reached the fleet's entry.
        let store = PostgresCacheStore(shared: sharedA, name: name)
        let key = CacheKey(partition: "", resource: "GET " + url)
        if case .response(let stored)? = try await store.record(for: key) {
            #expect(stored.headerFields[number] == "4")
        } else {
            Issue.record("no entry under \(key)")
        }
        #expect(server.requestCount(path: "/cache/\(name)") == 4)
        await sharedA.shutdown()
        await sharedB.shutdown()
    }

    @Test func anUnsafeRequestInOneProcessInvalidatesTheEntryForAll() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let name = PostgresTestDatabase.uniqueKey("invalidate")
        let (sharedA, sharedB) = (try PostgresTestDatabase.shared(), try PostgresTestDatabase.shared())
        let (clientA, _) = try Self.client(sharedA, name: name)
        let (clientB, _) = try Self.client(sharedB, name: name)
        let url = server.url("/cache/\(name)?max_age=600")
        #expect(try await clientA.send(try Request(url: url)).text == "\(name) #1\n")
        #expect(try await clientB.send(try Request(url: url)).context.provenance.source == .cache)
        _ = try await clientA.send(try Request(method: .post, url: url))
        let after = try await clientB.send(try Request(url: url))
        #expect(after.context.provenance == .network)
        #expect(after.text == "\(name) #3\n")
        await sharedA.shutdown()
        await sharedB.shutdown()
    }

    @Test func variantsByVaryAreSharedToo() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let name = PostgresTestDatabase.uniqueKey("vary")
        let (sharedA, sharedB) = (try PostgresTestDatabase.shared(), try PostgresTestDatabase.shared())
        let (clientA, _) = try Self.client(sharedA, name: name)
        let (clientB, _) = try Self.client(sharedB, name: name)
        let url = server.url("/cache/\(name)?max_age=600&vary=Accept-Language")
        func get(_ client: Client, _ language: String) async throws -> BufferedResponse {
            var request = try Request(url: url)
            request.head.headerFields[.acceptLanguage] = language
            return try await client.send(request)
        }
        #expect(try await get(clientA, "en").text == "\(name) #1 Accept-Language=en\n")
        #expect(try await get(clientA, "fr").text == "\(name) #2 Accept-Language=fr\n")
        #expect(try await get(clientB, "fr").text == "\(name) #2 Accept-Language=fr\n")
        #expect(try await get(clientB, "en").text == "\(name) #1 Accept-Language=en\n")
        #expect(server.requestCount(path: "/cache/\(name)") == 2)
        await sharedA.shutdown()
        await sharedB.shutdown()
    }

    @Test func concurrentWritersOfOneKeyLeaveOneWholeBody() async throws {
        let name = PostgresTestDatabase.uniqueKey("writers")
        let key = CacheKey(partition: "", resource: "GET http://example.test/one")
        let writers = 6
        // Each writer streams a body of its own byte, 1 MiB in 64 KiB chunks, interleaved with the others.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    let shared = try PostgresTestDatabase.shared()
                    let store = PostgresCacheStore(shared: shared, name: name, chunkBytes: 100_000)
                    let head = CachedResponse(status: 200, headerFields: [.contentType: "x/\(writer)"], requestTime: 0, responseTime: 0)
                    let entry = try #require(try await store.makeWriter(for: head, key: key))
                    for _ in 0..<16 { try await entry.write(ArraySlice(repeating: UInt8(writer), count: 64 << 10)) }
                    try await entry.commit()
                    await shared.shutdown()
                }
            }
            try await group.waitForAll()
        }
        let shared = try PostgresTestDatabase.shared()
        let store = PostgresCacheStore(shared: shared, name: name, inlineBodyBytes: 4 << 20)
        guard case .response(let stored)? = try await store.record(for: key) else {
            Issue.record("no entry after six commits")
            return
        }
        let winner = try #require(stored.body.first)
        #expect(stored.body.count == 1 << 20)
        #expect(stored.body.allSatisfy { $0 == winner }, "a stored body mixes two writers' bytes")
        #expect(stored.headerFields[.contentType] == "x/\(winner)")
        await shared.shutdown()
    }

    @Test func aBodyRemovedWhileItIsReadFailsInsteadOfEndingShort() async throws {
        let shared = try PostgresTestDatabase.shared()
        let store = PostgresCacheStore(shared: shared, name: PostgresTestDatabase.uniqueKey("removed"), inlineBodyBytes: 1024)
        let key = CacheKey(partition: "", resource: "GET http://example.test/big")
        try await store.store(
            .response(
                CachedResponse(status: 200, headerFields: [:], body: Array(repeating: 7, count: 300_000), requestTime: 0, responseTime: 0)),
            for: key)
        guard case .response(let stored)? = try await store.record(for: key), let streamed = stored.streamedBody else {
            Issue.record("a body over the inline size was not streamed")
            return
        }
        #expect(streamed.count == 300_000)
        #expect(try await streamed.open().collect(upTo: 1 << 20).count == 300_000)
        try await store.removeRecord(for: key)
        do {
            let bytes = try await streamed.open().collect(upTo: 1 << 20)
            Issue.record("a removed body was read as \(bytes.count) bytes")
        } catch let error as SwitchyardError {
            #expect(error.kind == .sharedStateUnavailable)
            #expect(error.message.contains("0 of its 300000 bytes"))
        }
        await shared.shutdown()
    }

    @Test func theOldestEntriesGoWhenTheStoreIsOverItsBound() async throws {
        let shared = try PostgresTestDatabase.shared()
        let store = PostgresCacheStore(shared: shared, name: PostgresTestDatabase.uniqueKey("bounded"), maxBytes: 25_000)
        let keys = (0..<3).map { CacheKey(partition: "", resource: "GET http://example.test/\($0)") }
        for key in keys {
            try await store.store(
                .response(
                    CachedResponse(
                        status: 200, headerFields: [:], body: Array(repeating: 1, count: 10_000), requestTime: 0, responseTime: 0)),
                for: key)
        }
        #expect(try await store.record(for: keys[0]) == nil)
        #expect(try await store.record(for: keys[1]) != nil)
        #expect(try await store.record(for: keys[2]) != nil)
        await shared.shutdown()
    }

    @Test func anUnreachableDatabaseIsAMissThatSaysSo() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let shared = try PostgresSharedState(url: "postgres://app:s3cret-pw@127.0.0.1:9/none", operationTimeout: .seconds(2))
        let (client, events) = try Self.client(shared, name: "unreachable")
        let response = try await client.send(try Request(url: server.url("/cache/unreachable?max_age=600")))
        #expect(response.text == "unreachable #1\n")
        let failures = events.all.compactMap { $0.plugin(CacheStoreFailed.self) }
        #expect(failures.map(\.operation) == ["read", "write"])
        #expect(failures.allSatisfy { !$0.message.contains("s3cret-pw") && $0.message.contains("127.0.0.1:9/none") })
        await shared.shutdown()
    }
}
