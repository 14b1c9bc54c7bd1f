import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCache
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// The disk store: damaged entries are never served, several stores share a directory, bounds hold.
@Suite(.timeLimit(.minutes(2)))
struct DiskCacheStoreTests {
    @Test(arguments: TransportKind.allCases)
    func aCorruptedEntryOfTheSameLengthGoesToTheNetwork(_ kind: TransportKind) async throws {
        let directory = temporaryDirectory()
        let cache = HTTPCache(store: try DiskCacheStore(directory: directory))
        try await withCachingClient(kind, cache: cache) { client, server in
            let path = "/cache/corrupt?max_age=600"
            _ = try await client.send(try get(server, path))
            #expect(try await client.send(try get(server, path)).context.provenance.source == .cache)

            let files = entryFiles(in: directory)
            try #require(files.count == 1)
            var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: files[0])))
            let body = Array("corrupt #1\n".utf8)
            let start = try #require(bytes.firstRange(of: body)).lowerBound
            bytes[start] = UInt8(ascii: "C")  // same length, one byte different
            try Data(bytes).write(to: URL(fileURLWithPath: files[0]))

            let response = try await client.send(try get(server, path))
            #expect(response.text == "corrupt #2\n")
            #expect(response.context.provenance == .network)
            #expect(server.requestCount(path: "/cache/corrupt") == 2)
        }
    }

    @Test func truncatedAndCorruptedHeadersAreMisses() throws {
        let directory = temporaryDirectory()
        let store = try DiskCacheStore(directory: directory)
        let key = CacheKey(partition: "", resource: "GET http://x/y")
        let response = CachedResponse(
            status: 200, headerFields: [.cacheControl: "max-age=60"], body: Array("hello".utf8),
            requestTime: 1, responseTime: 2)
        store.store(.response(response), for: key)
        guard case .response(let read)? = store.record(for: key) else {
            Issue.record("not stored")
            return
        }
        #expect(read.body == response.body)
        #expect(read.headerFields == response.headerFields)

        let file = try #require(entryFiles(in: directory).first)
        let original = try Data(contentsOf: URL(fileURLWithPath: file))
        // A header byte flipped (same length).
        var flipped = original
        flipped[12] ^= 0x20
        try flipped.write(to: URL(fileURLWithPath: file))
        #expect(store.record(for: key) == nil)
        #expect(entryFiles(in: directory).isEmpty)  // discarded

        // Truncated.
        try original.prefix(original.count - 7).write(to: URL(fileURLWithPath: file))
        #expect(store.record(for: key) == nil)
    }

    @Test func twoStoresOnOneDirectorySeeEachOthersEntries() async throws {
        let directory = temporaryDirectory()
        let first = try DiskCacheStore(directory: directory)
        let second = try DiskCacheStore(directory: directory)
        let key = CacheKey(partition: "p", resource: "GET http://x/shared")
        first.store(.response(Self.response(body: "from the first")), for: key)
        guard case .response(let read)? = second.record(for: key) else {
            Issue.record("not visible")
            return
        }
        #expect(read.body == Array("from the first".utf8))

        // Both write the same key over and over while both read: every read is a whole entry.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, store) in [first, second].enumerated() {
                group.addTask {
                    for round in 0..<200 {
                        let body = String(repeating: Character(String(index)), count: 1_000 + round)
                        store.store(.response(Self.response(body: body)), for: key)
                    }
                }
                group.addTask {
                    for _ in 0..<200 {
                        if case .response(let read)? = store.record(for: key) {
                            // The first entry, or one writer's whole body: never a mix.
                            #expect(read.body == Array("from the first".utf8) || Set(read.body).count == 1)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(second.record(for: key) != nil)
    }

    @Test func theDirectoryStaysWithinItsBoundEvictingTheLeastRecentlyUsed() throws {
        let directory = temporaryDirectory()
        let store = try DiskCacheStore(directory: directory, maxBytes: 10_000)
        let keys = (0..<20).map { CacheKey(partition: "", resource: "GET http://x/\($0)") }
        store.store(.response(Self.response(body: String(repeating: "k", count: 1_000))), for: keys[0])
        for key in keys.dropFirst() {
            _ = store.record(for: keys[0])  // keep the first one in use
            store.store(.response(Self.response(body: String(repeating: "a", count: 1_000))), for: key)
        }
        #expect(store.totalBytes <= 10_000)
        #expect(store.record(for: keys[0]) != nil)
        #expect(store.record(for: keys[1]) == nil)
    }

    static func response(body: String) -> CachedResponse {
        CachedResponse(
            status: 200, headerFields: [.cacheControl: "max-age=60"], body: Array(body.utf8),
            requestTime: 1, responseTime: 2)
    }
}
