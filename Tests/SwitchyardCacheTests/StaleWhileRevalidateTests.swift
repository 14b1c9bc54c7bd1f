import HTTPTypes
import Switchyard
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@testable import SwitchyardCache

/// `stale-while-revalidate` (RFC 5861 §3): a stale response within the window is served at once
/// and revalidated in the background, one revalidation at a time per entry. The responses carry
/// `max-age=0`, so they are stale as soon as they are stored; the tests wait for the server's
/// request count and the stored entry, never for a duration.
@Suite(.timeLimit(.minutes(2)))
struct StaleWhileRevalidateTests {
    @Test(arguments: TransportKind.allCases)
    func aStaleResponseIsServedAtOnceAndRevalidatedInTheBackground(_ kind: TransportKind) async throws {
        try await withCachingClient(kind, cache: HTTPCache()) { client, server in
            let path = "/cache/swr?cache_control=max-age=0,stale-while-revalidate=600&etag=v1"
            let first = try await client.send(try get(server, path))
            #expect(first.head.headerFields[requestNumber] == "1")

            let second = try await client.send(try get(server, path))
            #expect(second.text == "swr #1\n")
            #expect(second.context.provenance.source == .stale)
            #expect(second.head.headerFields[requestNumber] == "1")
            // The revalidation reaches the server after the stale response was served...
            #expect(await eventually { server.requestCount(path: "/cache/swr") == 2 })
            // ...and the server's 304 refreshes the stored entry.
            #expect(await eventually { await Self.stored(client, server, path)?.head.headerFields[requestNumber] == "2" })
            #expect(await Self.stored(client, server, path)?.text == "swr #1\n")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aFullAnswerToTheBackgroundRevalidationReplacesTheEntry(_ kind: TransportKind) async throws {
        try await withCachingClient(kind, cache: HTTPCache()) { client, server in
            let path = "/cache/swrfull?cache_control=max-age=0,stale-while-revalidate=600"
            _ = try await client.send(try get(server, path))
            let second = try await client.send(try get(server, path))
            #expect(second.text == "swrfull #1\n")
            #expect(second.context.provenance.source == .stale)
            #expect(await eventually { await Self.stored(client, server, path)?.text == "swrfull #2\n" })
        }
    }

    @Test(arguments: TransportKind.allCases)
    func oneBackgroundRevalidationAtATimePerEntry(_ kind: TransportKind) async throws {
        let cache = HTTPCache()
        try await withCachingClient(kind, cache: cache) { client, server in
            // Requests after the first are held by the server until the test lets them through.
            let path = fieldsPath("swronce", ["Cache-Control": "max-age=0, stale-while-revalidate=600"], query: "hold_after=1")
            _ = try await client.send(try get(server, path))
            for _ in 0..<3 {
                let response = try await client.send(try get(server, path))
                #expect(response.text == "swronce #1\n")
                #expect(response.context.provenance.source == .stale)
            }
            // The first stale hit started a revalidation (decided before it returned); the next two
            // found it in flight.
            #expect(cache.backgroundRevalidationsStarted == 1)
            #expect(await eventually { server.gate(key: "swronce").held == 1 })

            server.release(key: "swronce")
            #expect(await eventually { await Self.stored(client, server, path)?.text == "swronce #2\n" })
            #expect(await eventually { cache.backgroundRevalidationsInFlight == 0 })

            // Once it has finished, the next stale hit starts another.
            let later = try await client.send(try get(server, path))
            #expect(later.text == "swronce #2\n")
            #expect(cache.backgroundRevalidationsStarted == 2)
            #expect(await eventually { await Self.stored(client, server, path)?.text == "swronce #3\n" })
            #expect(server.requestCount(path: "/cache-fields/swronce") == 3)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func pastTheWindowOrWhenRevalidationIsRequiredTheRequestWaitsForIt(_ kind: TransportKind) async throws {
        let clock = TestClock()
        var configuration = CacheConfiguration()
        configuration.now = clock.now
        let cache = HTTPCache(configuration: configuration)
        try await withCachingClient(kind, cache: cache) { client, server in
            let past = "/cache/swrpast?cache_control=max-age=10,stale-while-revalidate=60&etag=p"
            _ = try await client.send(try get(server, past))
            clock.advance(seconds: 100)  // 90 s stale: past the 60 s window
            let late = try await client.send(try get(server, past))
            #expect(late.context.provenance.source == .revalidated)
            #expect(server.requestCount(path: "/cache/swrpast") == 2)

            // must-revalidate forbids stale use (RFC 9111 §5.2.2.2); so does the request's no-cache.
            let strict = "/cache/swrstrict?cache_control=max-age=0,stale-while-revalidate=600,must-revalidate&etag=s"
            _ = try await client.send(try get(server, strict))
            #expect(try await client.send(try get(server, strict)).context.provenance.source == .revalidated)
            let window = "/cache/swrnocache?cache_control=max-age=0,stale-while-revalidate=600&etag=n"
            _ = try await client.send(try get(server, window))
            let validated = try await client.send(try get(server, window, cacheControl: "no-cache"))
            #expect(validated.context.provenance.source == .revalidated)
            #expect(cache.backgroundRevalidationsStarted == 0)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func theBackgroundRevalidationIsAnExchangeOfItsOwn(_ kind: TransportKind) async throws {
        // What each attempt below the cache runs with: its exchange's id and deadline.
        let seen = Lock<[(id: UInt64, deadline: ContinuousClock.Instant?)]>([])
        var configuration = ClientConfiguration(events: EventBus(), retry: nil, plugins: [.cache(HTTPCache())])
        configuration.attemptInterceptors = [
            ClosureInterceptor(name: "Recorder") { request, context, next in
                seen.withLock { $0.append((context.id, context.deadline)) }
                return try await next(request)
            }
        ]
        try await withLoopbackClient(kind, configuration: configuration) { client, server in
            let path = "/cache/swrown?cache_control=max-age=0,stale-while-revalidate=600&etag=o"
            let first = try await client.send(try get(server, path))
            var request = try get(server, path)
            request.options.timeout = .seconds(30)
            let stale = try await client.send(request)
            #expect(stale.context.provenance.source == .stale)
            #expect(await eventually { seen.withLock { $0.count } == 2 })  // the first fetch, the revalidation
            #expect(await eventually { server.requestCount(path: "/cache/swrown") == 2 })

            let background = seen.withLock { $0[1] }
            #expect(background.id != stale.context.id)
            #expect(background.id != first.context.id)
            // As long as the caller had (30 s), from its own start: past the caller's deadline.
            let callerDeadline = try #require(stale.context.deadline)
            let ownDeadline = try #require(background.deadline)
            #expect(ownDeadline > callerDeadline)
            #expect(ownDeadline <= callerDeadline.advanced(by: .seconds(30)))
            #expect(stale.context.attempt == 1)
            #expect(stale.context.provenance.source == .stale)
        }
    }

    /// What the cache holds for `path`, read without the network.
    static func stored(_ client: Client, _ server: LoopbackServer, _ path: String) async -> BufferedResponse? {
        guard let request = try? get(server, path, policy: .cacheOnly) else { return nil }
        return try? await client.send(request)
    }
}
