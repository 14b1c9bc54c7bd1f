import HTTPTypes
import Switchyard
import SwitchyardCache
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// What reaches the store: `no-cache` naming fields (RFC 9111 §5.2.2.4), the per-request option
/// that keeps a response out, and the configuration's hook that edits stored fields.
@Suite(.timeLimit(.minutes(2)))
struct CacheStoredFieldsTests {
    static let secret = HTTPField.Name("X-Secret")!
    static let kept = HTTPField.Name("X-Kept")!
    static let trace = HTTPField.Name("X-Trace-ID")!

    @Test(arguments: TransportKind.allCases)
    func noCacheNamingFieldsStoresTheResponseWithoutThem(_ kind: TransportKind) async throws {
        try await withCachingClient(kind, cache: HTTPCache()) { client, server in
            let path = fieldsPath(
                "named",
                [
                    "Cache-Control": "max-age=600, no-cache=\"Set-Cookie, X-Secret\"", "Set-Cookie": "session=abc",
                    "X-Secret": "s", "X-Kept": "yes"
                ])
            let first = try await client.send(try get(server, path))
            #expect(first.head.headerFields[Self.secret] == "s")  // the network's response is the caller's, whole

            // Stored, and reused without revalidation, without the fields it names.
            let second = try await client.send(try get(server, path))
            #expect(second.text == "named #1\n")
            #expect(second.context.provenance.source == .cache)
            #expect(second.head.headerFields[.setCookie] == nil)
            #expect(second.head.headerFields[Self.secret] == nil)
            #expect(second.head.headerFields[Self.kept] == "yes")
            #expect(server.requestCount(path: "/cache-fields/named") == 1)

            // Unqualified no-cache still means: validate before each use.
            let plain = fieldsPath("unqualified", ["Cache-Control": "max-age=600, no-cache"])
            _ = try await client.send(try get(server, plain))
            #expect(try await client.send(try get(server, plain)).text == "unqualified #2\n")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aRequestThatOptsOutIsNotStored(_ kind: TransportKind) async throws {
        try await withCachingClient(kind, cache: HTTPCache()) { client, server in
            let path = "/cache/optout?max_age=600"
            var optedOut = try get(server, path)
            optedOut.options.cacheStoresResponse = false
            #expect(try await client.send(optedOut).text == "optout #1\n")
            let plain = try await client.send(try get(server, path))
            #expect(plain.text == "optout #2\n")  // nothing was stored
            #expect(plain.context.provenance == .network)
            // A stored response still answers a request that opts out.
            let again = try await client.send(optedOut)
            #expect(again.text == "optout #2\n")
            #expect(again.context.provenance.source == .cache)
            #expect(server.requestCount(path: "/cache/optout") == 2)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func willStoreEditsTheStoredCopyOnly(_ kind: TransportKind) async throws {
        let paths = Lock<[String]>([])
        var configuration = CacheConfiguration()
        configuration.willStore = { request, fields in
            paths.withLock { $0.append(request.path ?? "") }
            fields[.setCookie] = nil
            fields[Self.trace] = nil
        }
        try await withCachingClient(kind, cache: HTTPCache(configuration: configuration)) { client, server in
            let path = fieldsPath("hooked", ["Cache-Control": "max-age=600", "X-Trace-ID": "t1", "X-Kept": "yes"])
            let first = try await client.send(try get(server, path))
            #expect(first.head.headerFields[Self.trace] == "t1")
            let second = try await client.send(try get(server, path))
            #expect(second.context.provenance.source == .cache)
            #expect(second.head.headerFields[Self.trace] == nil)
            #expect(second.head.headerFields[Self.kept] == "yes")
            #expect(paths.withLock { $0 } == [path])
        }
    }

    @Test func willStoreAlsoEditsTheFieldsANotModifiedRefreshes() async throws {
        var configuration = CacheConfiguration()
        configuration.willStore = { _, fields in fields[requestNumber] = nil }
        try await withCachingClient(.curl, cache: HTTPCache(configuration: configuration)) { client, server in
            let path = "/cache/hooked304?max_age=0&etag=h"
            let first = try await client.send(try get(server, path))
            #expect(first.head.headerFields[requestNumber] == "1")
            // The 304 carries X-Request-Number: 2; the caller gets the network's fields, the store does not.
            let second = try await client.send(try get(server, path))
            #expect(second.context.provenance.source == .revalidated)
            #expect(second.head.headerFields[requestNumber] == "2")
            let stored = try await client.send(try get(server, path, policy: .cacheOnly))
            #expect(stored.head.headerFields[requestNumber] == nil)
            #expect(stored.text == "hooked304 #1\n")
        }
    }
}
