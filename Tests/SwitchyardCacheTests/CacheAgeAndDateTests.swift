import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCache
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// `Age` as a list (RFC 9111 §5.1) and `Expires` / `Date` in every form and case a cache recipient
/// must read (RFC 9110 §5.6.7, RFC 9111 §4.2 and §5.3), over every transport.
@Suite(.timeLimit(.minutes(2)))
struct CacheAgeAndDateTests {
    /// A minute after 2022-11-06 08:49:37 UTC, the responses' `Date`.
    static let clock: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_667_724_577 + 60) }

    static func cache() -> HTTPCache {
        var configuration = CacheConfiguration()
        configuration.now = clock
        return HTTPCache(configuration: configuration)
    }

    @Test(arguments: TransportKind.allCases)
    func anAgeListCountsItsFirstValue(_ kind: TransportKind) async throws {
        // RFC 9111 §5.1: "a cache SHOULD use the first value" of a list. `Age: 7200, 0` with
        // `max-age=3600` arrived an hour stale: the next request goes to the network.
        try await withCachingClient(kind, cache: HTTPCache()) { client, server in
            let stale = fieldsPath("agelist", ["Cache-Control": "max-age=3600", "Age": "7200, 0"])
            _ = try await client.send(try get(server, stale))
            let again = try await client.send(try get(server, stale))
            #expect(again.text == "agelist #2\n")
            #expect(again.context.provenance == .network)
            #expect(server.requestCount(path: "/cache-fields/agelist") == 2)

            // Two `Age` lines are a list too: the first counts.
            let lines = fieldsPath("agelines", ["Cache-Control": "max-age=3600", "Age": "7200", "Age": "0"])
            _ = try await client.send(try get(server, lines))
            #expect(try await client.send(try get(server, lines)).text == "agelines #2\n")

            // A small first value keeps the response fresh, and its age shows it.
            let fresh = fieldsPath("agefirst", ["Cache-Control": "max-age=3600", "Age": "600, 9999"])
            _ = try await client.send(try get(server, fresh))
            let cached = try await client.send(try get(server, fresh))
            #expect(cached.text == "agefirst #1\n")
            #expect(cached.context.provenance.source == .cache)
            #expect((cached.head.headerFields[.age].flatMap { Int($0) } ?? 0) >= 600)
            #expect((cached.context.provenance.age ?? .zero) >= .seconds(600))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anInvalidAgeIsIgnored(_ kind: TransportKind) async throws {
        try await withCachingClient(kind, cache: HTTPCache()) { client, server in
            // "If the field value (after discarding additional members) is invalid, a cache SHOULD ignore the field."
            let path = fieldsPath("agebad", ["Cache-Control": "max-age=3600", "Age": "soon, 7200"])
            _ = try await client.send(try get(server, path))
            let again = try await client.send(try get(server, path))
            #expect(again.text == "agebad #1\n")
            #expect(again.context.provenance.source == .cache)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func expiresAndDateAreReadWhateverTheCaseOfTheirNames(_ kind: TransportKind) async throws {
        // RFC 9111 §4.2: "a cache recipient SHOULD match day, week, and time-zone names case-insensitively".
        // Each response expires an hour after its Date and is read a minute later: fresh.
        let forms = [
            ("imfupper", "Sun, 06 NOV 2022 08:49:37 GMT", "Sun, 06 NOV 2022 09:49:37 GMT"),
            ("imflower", "sun, 06 nov 2022 08:49:37 gmt", "sun, 06 nov 2022 09:49:37 gmt"),
            ("rfc850upper", "SUNDAY, 06-NOV-22 08:49:37 GMT", "SUNDAY, 06-NOV-22 09:49:37 GMT"),
            ("asctimeupper", "SUN NOV  6 08:49:37 2022", "SUN NOV  6 09:49:37 2022")
        ]
        try await withCachingClient(kind, cache: Self.cache()) { client, server in
            for (key, date, expires) in forms {
                let path = fieldsPath(key, ["Date": date, "Expires": expires])
                _ = try await client.send(try get(server, path))
                let again = try await client.send(try get(server, path))
                #expect(again.text == "\(key) #1\n", "\(key)")
                #expect(again.context.provenance.source == .cache, "\(key)")
                #expect(server.requestCount(path: "/cache-fields/\(key)") == 1, "\(key)")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func expiresInTheObsoleteFormsOfTheRFCsExampleIsLongPast(_ kind: TransportKind) async throws {
        // RFC 9110 §5.6.7's examples, read in 2022: 06 Nov 1994 has long passed.
        try await withCachingClient(kind, cache: Self.cache()) { client, server in
            for (key, expires) in [("rfc850past", "Sunday, 06-Nov-94 08:49:37 GMT"), ("asctimepast", "Sun Nov  6 08:49:37 1994")] {
                let path = fieldsPath(key, ["Date": "Sun, 06 Nov 2022 08:49:37 GMT", "Expires": expires])
                _ = try await client.send(try get(server, path))
                #expect(try await client.send(try get(server, path)).text == "\(key) #2\n")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anInvalidExpiresMeansAlreadyExpired(_ kind: TransportKind) async throws {
        // RFC 9111 §5.3: "A cache recipient MUST interpret invalid date formats, especially the value
        // "0", as representing a time in the past (i.e., "already expired")."
        try await withCachingClient(kind, cache: Self.cache()) { client, server in
            for (key, expires) in [("expireszero", "0"), ("expiressoon", "soon"), ("expiresday", "Sun, 06 Nov 2022")] {
                let path = fieldsPath(key, ["Date": "Sun, 06 Nov 2022 08:49:37 GMT", "Expires": expires])
                _ = try await client.send(try get(server, path))
                #expect(try await client.send(try get(server, path)).text == "\(key) #2\n", "\(key)")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func ofTwoExpiresFieldsTheFirstCounts(_ kind: TransportKind) async throws {
        // RFC 9111 §4.2: with two Expires lines "either the first occurrence should be used or the
        // response should be considered stale"; browsers use the first.
        try await withCachingClient(kind, cache: Self.cache()) { client, server in
            let path = fieldsPath(
                "twoexpires",
                [
                    "Date": "Sun, 06 Nov 2022 08:49:37 GMT", "Expires": "Sun, 06 Nov 2022 09:49:37 GMT",
                    "Expires": "Sun, 06 Nov 2022 08:49:37 GMT"
                ])
            _ = try await client.send(try get(server, path))
            let again = try await client.send(try get(server, path))
            #expect(again.text == "twoexpires #1\n")
            #expect(again.context.provenance.source == .cache)
        }
    }
}
