import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCache
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// The cache reads `Date` and `Expires` in the obsolete forms RFC 9110 §5.6.7 says a recipient
/// must accept, over every transport.
@Suite(.timeLimit(.minutes(2)))
struct CacheObsoleteDateFormTests {
    /// A minute after 2022-11-06 08:49:37 UTC, the responses' `Date`.
    static let clock: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_667_724_577 + 60) }

    @Test(arguments: TransportKind.allCases)
    func anExpiresInRFC850FormKeepsTheResponseFresh(_ kind: TransportKind) async throws {
        var configuration = CacheConfiguration()
        configuration.now = Self.clock
        try await withCachingClient(kind, cache: HTTPCache(configuration: configuration)) { client, server in
            // Fresh for an hour from its Date; read a minute later.
            let path = "/cache/rfc850?date=Sunday,%2006-Nov-22%2008:49:37%20GMT&expires=Sunday,%2006-Nov-22%2009:49:37%20GMT"
            let first = try await client.send(try get(server, path))
            let second = try await client.send(try get(server, path))
            #expect(first.head.headerFields[.expires] == "Sunday, 06-Nov-22 09:49:37 GMT")
            #expect(second.text == "rfc850 #1\n")
            #expect(second.context.provenance.source == .cache)
            #expect(server.requestCount(path: "/cache/rfc850") == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anExpiresInRFC850FormThatHasPassedIsStale(_ kind: TransportKind) async throws {
        var configuration = CacheConfiguration()
        configuration.now = Self.clock
        try await withCachingClient(kind, cache: HTTPCache(configuration: configuration)) { client, server in
            // Expired 30 s after its Date, so stale a minute later.
            let path = "/cache/rfc850old?date=Sunday,%2006-Nov-22%2008:49:37%20GMT&expires=Sunday,%2006-Nov-22%2008:50:07%20GMT"
            _ = try await client.send(try get(server, path))
            let second = try await client.send(try get(server, path))
            #expect(second.text == "rfc850old #2\n")
            #expect(server.requestCount(path: "/cache/rfc850old") == 2)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anExpiresInAsctimeFormKeepsTheResponseFresh(_ kind: TransportKind) async throws {
        var configuration = CacheConfiguration()
        configuration.now = Self.clock
        try await withCachingClient(kind, cache: HTTPCache(configuration: configuration)) { client, server in
            let path = "/cache/asctime?date=Sun%20Nov%20%206%2008:49:37%202022&expires=Sun%20Nov%20%206%2009:49:37%202022"
            _ = try await client.send(try get(server, path))
            let second = try await client.send(try get(server, path))
            #expect(second.text == "asctime #1\n")
            #expect(second.context.provenance.source == .cache)
            #expect(server.requestCount(path: "/cache/asctime") == 1)
        }
    }
}
