import HTTPTypes
import Switchyard
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@testable import SwitchyardCache

/// Range requests and partial content (RFC 9111 §3.3, §3.4; RFC 9110 §14): a stored complete
/// response answers a single byte range with a 206 built from it; stored 206s answer the ranges
/// they cover and are combined, when they share a strong validator, into the whole representation.
/// A range that what is stored cannot answer goes to the network.
@Suite(.timeLimit(.minutes(2)))
struct CacheRangeTests {
    /// A cache that keeps `/bytes` responses (which carry no cache headers) fresh for ten minutes.
    static func cache(store: any CacheStore = MemoryCacheStore()) -> HTTPCache {
        var configuration = CacheConfiguration()
        configuration.ttlRules = [CacheTTLRule(scope: RequestScope(pathPrefixes: ["/bytes"]), ttl: .seconds(600))]
        return HTTPCache(store: store, configuration: configuration)
    }

    @Test(arguments: TransportKind.allCases)
    func aStoredCompleteResponseAnswersARangeWithA206BuiltFromIt(_ kind: TransportKind) async throws {
        try await withCachingClient(kind, cache: Self.cache()) { client, server in
            let full = try await client.send(try get(server, "/bytes/1000"))
            #expect(full.body == patternBytes(0..<1000))
            let cases: [(String, Range<Int>)] = [
                ("bytes=100-199", 100..<200), ("bytes=990-", 990..<1000), ("bytes=-10", 990..<1000),
                ("bytes=900-5000", 900..<1000), ("bytes=0-0", 0..<1)
            ]
            for (range, expected) in cases {
                let partial = try await client.send(try get(server, "/bytes/1000", headers: ["Range": range]))
                #expect(partial.head.status == .partialContent, "\(range)")
                #expect(
                    partial.head.headerFields[.contentRange] == "bytes \(expected.lowerBound)-\(expected.upperBound - 1)/1000",
                    "\(range)")
                #expect(partial.head.headerFields[.contentLength] == String(expected.count), "\(range)")
                #expect(partial.body == patternBytes(expected), "\(range)")
                #expect(partial.context.provenance.source == .cache, "\(range)")
            }
            #expect(server.requestCount(path: "/bytes/1000") == 1)

            // A range the representation cannot satisfy, or several ranges, go to the network; what
            // they get does not replace the stored response.
            let outside = try await client.send(try get(server, "/bytes/1000", headers: ["Range": "bytes=2000-"]))
            #expect(outside.head.status.code == 416)
            _ = try await client.send(try get(server, "/bytes/1000", headers: ["Range": "bytes=0-1,5-6"]))
            #expect(server.requestCount(path: "/bytes/1000") == 3)
            let again = try await client.send(try get(server, "/bytes/1000"))
            #expect(again.context.provenance.source == .cache)
            #expect(again.body.count == 1000)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func storedPartsWithOneStrongValidatorAnswerTheirRangesAndCombine(_ kind: TransportKind) async throws {
        try await withCachingClient(kind, cache: HTTPCache()) { client, server in
            try await Self.combine(client, server)
        }
    }

    @Test func storedPartsCombineOnDisk() async throws {
        let cache = HTTPCache(store: try DiskCacheStore(directory: temporaryDirectory()))
        try await withCachingClient(.curl, cache: cache) { client, server in
            try await Self.combine(client, server)
        }
    }

    /// Two halves from the network, a range inside the first from the cache, then the whole
    /// representation and a range across the halves from the cache.
    static func combine(_ client: Client, _ server: LoopbackServer) async throws {
        let path = fieldsPath("parts", ["Cache-Control": "max-age=600"], query: "bytes=1000")
        let head = try await client.send(try get(server, path, headers: ["Range": "bytes=0-499"]))
        #expect(head.head.status == .partialContent)
        #expect(head.body == patternBytes(0..<500))

        let inside = try await client.send(try get(server, path, headers: ["Range": "bytes=100-199"]))
        #expect(inside.head.status == .partialContent)
        #expect(inside.head.headerFields[.contentRange] == "bytes 100-199/1000")
        #expect(inside.head.headerFields[.contentLength] == "100")
        #expect(inside.body == patternBytes(100..<200))
        #expect(inside.context.provenance.source == .cache)
        #expect(server.requestCount(path: "/cache-fields/parts") == 1)

        // Not covered by what is stored: the network.
        let tail = try await client.send(try get(server, path, headers: ["Range": "bytes=500-999"]))
        #expect(tail.context.provenance == .network)
        #expect(tail.body == patternBytes(500..<1000))

        // The two parts are the whole representation now.
        let whole = try await client.send(try get(server, path))
        #expect(whole.head.status == .ok)
        #expect(whole.body == patternBytes(0..<1000))
        #expect(whole.head.headerFields[.contentLength] == "1000")
        #expect(whole.head.headerFields[.contentRange] == nil)
        #expect(whole.context.provenance.source == .cache)
        let across = try await client.send(try get(server, path, headers: ["Range": "bytes=400-599"]))
        #expect(across.body == patternBytes(400..<600))
        #expect(across.context.provenance.source == .cache)
        #expect(server.requestCount(path: "/cache-fields/parts") == 2)
    }

    @Test(arguments: TransportKind.allCases)
    func partsOfDifferentVersionsAreNotCombined(_ kind: TransportKind) async throws {
        try await withCachingClient(kind, cache: HTTPCache()) { client, server in
            // The server's ETag follows the request's X-Version: the resource changed between the parts.
            let path = fieldsPath("versions", ["Cache-Control": "max-age=600"], query: "bytes=1000")
            let first = try await client.send(try get(server, path, headers: ["Range": "bytes=0-499", "X-Version": "1"]))
            #expect(first.head.headerFields[.eTag] == "\"versions-1\"")
            let second = try await client.send(try get(server, path, headers: ["Range": "bytes=500-999", "X-Version": "2"]))
            #expect(second.head.headerFields[.eTag] == "\"versions-2\"")
            let whole = try await client.send(try get(server, path, headers: ["X-Version": "2"]))
            #expect(whole.context.provenance == .network)
            #expect(server.requestCount(path: "/cache-fields/versions") == 3)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func ifRangeAppliesTheRangeOnlyToTheRepresentationItNames(_ kind: TransportKind) async throws {
        try await withCachingClient(kind, cache: HTTPCache()) { client, server in
            let path = fieldsPath("ifrange", ["Cache-Control": "max-age=600"], query: "bytes=1000")
            let first = try await client.send(try get(server, path))
            #expect(first.body == patternBytes(0..<1000))
            let tag = try #require(first.head.headerFields[.eTag])  // the server's strong tag

            // The stored representation is the one named: the range, from the cache.
            let named = try await client.send(try get(server, path, headers: ["Range": "bytes=10-19", "If-Range": tag]))
            #expect(named.head.status == .partialContent)
            #expect(named.head.headerFields[.contentRange] == "bytes 10-19/1000")
            #expect(named.body == patternBytes(10..<20))
            #expect(named.context.provenance.source == .cache)

            // Another tag, or a weak one: the whole representation, from the cache.
            for validator in ["\"another\"", "W/" + tag] {
                let other = try await client.send(try get(server, path, headers: ["Range": "bytes=10-19", "If-Range": validator]))
                #expect(other.head.status == .ok, "\(validator)")
                #expect(other.body == patternBytes(0..<1000), "\(validator)")
                #expect(other.context.provenance.source == .cache, "\(validator)")
            }
            #expect(server.requestCount(path: "/cache-fields/ifrange") == 1)
        }
    }

    @Test func ifRangeWithADateHoldsOnlyForAStrongLastModified() {
        let modified = "Sun, 06 Nov 1994 08:49:37 GMT"
        func stored(date: String) -> CachedResponse {
            CachedResponse(
                status: 200, headerFields: [.lastModified: modified, .date: date, .eTag: "\"t\""],
                body: Array(repeating: 1, count: 10), requestTime: 784_111_777, responseTime: 784_111_777)
        }
        let later = stored(date: "Sun, 06 Nov 1994 08:49:38 GMT")  // a second later: strong
        let same = stored(date: modified)  // the same second: weak
        #expect(later.holdsIfRange(modified))
        #expect(later.holdsIfRange(" \(modified) "))
        #expect(!later.holdsIfRange("Sun, 06 Nov 1994 08:49:36 GMT"))
        #expect(!same.holdsIfRange(modified))
        #expect(later.holdsIfRange("\"t\""))
        #expect(!later.holdsIfRange("W/\"t\""))
        #expect(!later.holdsIfRange("soon"))
    }
}
