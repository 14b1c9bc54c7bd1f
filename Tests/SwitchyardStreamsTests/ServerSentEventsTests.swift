import Foundation
import HTTPTypes
import Switchyard
import SwitchyardStreams
import SwitchyardTestServer
import SwitchyardTestSupport
import Synchronization
import Testing

/// Event streams through the client, against the loopback server, on every transport.
@Suite(.timeLimit(.minutes(2)))
struct ServerSentEventsTests {
    /// Reconnect at once when the server says nothing: the loopback server's own `retry:` is tested separately.
    private let quick = EventStreamOptions(reconnectionDelay: .milliseconds(1))

    private func collect(_ events: ServerSentEvents) async throws -> [ServerSentEvent] {
        var collected: [ServerSentEvent] = []
        for try await event in events { collected.append(event) }
        return collected
    }

    @Test(arguments: TransportKind.allCases)
    func aStreamCutMidEventResumesFromTheLastIDWithNothingTwiceAndNothingTorn(_ kind: TransportKind) async throws {
        try await withLoopbackClient(kind, configuration: ClientConfiguration()) { client, server in
            let request = try Request(url: server.url("/events/cut?total=10&per_connection=3&cut=1&retry=5"))
            let events = try await collect(client.serverSentEvents(request, options: quick))
            #expect(events.map(\.data) == (1...10).map { "event \($0)" })
            #expect(events.map(\.lastEventID) == (1...10).map { "\($0)" })
            #expect(server.eventStreamRequests(key: "cut") == [nil, "3", "6", "9", "10"], "the last one is answered 204")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func tenThousandEventsArriveInOrder(_ kind: TransportKind) async throws {
        try await withLoopbackClient(kind, configuration: ClientConfiguration()) { client, server in
            let request = try Request(url: server.url("/events/many?total=10000&type=tick"))
            var count = 0
            for try await event in client.serverSentEvents(request, options: quick) {
                count += 1
                if event.data != "event \(count)" || event.type != "tick" { break }
            }
            #expect(count == 10_000)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anotherContentTypeIsRejectedWithoutReconnecting(_ kind: TransportKind) async throws {
        try await withLoopbackClient(kind, configuration: ClientConfiguration()) { client, server in
            let request = try Request(url: server.url("/events/plain?content_type=text/plain"))
            let error = await #expect(throws: SwitchyardError.self) { try await collect(client.serverSentEvents(request, options: quick)) }
            #expect(error?.kind == .eventStreamRejected)
            #expect(error?.message.contains("text/plain") == true)
            #expect(server.eventStreamRequests(key: "plain").count == 1)
        }
    }

    @Test func aFailingStatusEndsTheStreamTypedThroughTheChainOrWithout() async throws {
        try await withLoopbackClient(.curl, configuration: .standard) { client, server in
            let error = await #expect(throws: SwitchyardError.self) {
                try await collect(client.serverSentEvents(try Request(url: server.url("/status/500")), options: quick))
            }
            #expect(error?.kind == .eventStreamRejected, "the stream judges the status, not the chain's status validation")
            #expect(error?.response?.status.code == 500)
            #expect(server.requestCount(path: "/status/500") == 1, "not retried")
        }
        try await withLoopbackClient(.curl, configuration: ClientConfiguration()) { client, server in
            let error = await #expect(throws: SwitchyardError.self) {
                try await collect(client.serverSentEvents(try Request(url: server.url("/status/404")), options: quick))
            }
            #expect(error?.kind == .eventStreamRejected)
        }
    }

    /// WHATWG: any status but `200` fails the connection and does not reconnect, even when the answer
    /// claims to be an event stream, whether or not the chain validates statuses (whose retry link
    /// would try a `503` again).
    @Test(arguments: TransportKind.allCases, [true, false])
    func anErrorStatusAnsweredAsAnEventStreamIsRejectedNamingItWithoutReconnecting(_ kind: TransportKind, validating: Bool)
        async throws
    {
        let bus = EventBus()
        let events = CollectedEvents(bus)
        var configuration = validating ? ClientConfiguration.standard : ClientConfiguration()
        configuration.events = bus
        try await withLoopbackClient(kind, configuration: configuration) { client, server in
            let request = try Request(url: server.url("/events/failing?status=503&total=3"))
            let delivered = Mutex(0)
            let error = await #expect(throws: SwitchyardError.self) {
                for try await _ in client.serverSentEvents(request, options: quick) { delivered.withLock { $0 += 1 } }
            }
            #expect(error?.kind == .eventStreamRejected)
            #expect(error?.message.contains("503") == true, "\(error?.message ?? "")")
            #expect(error?.message.contains("text/event-stream") == true)
            #expect(error?.response?.status.code == 503)
            #expect(delivered.withLock { $0 } == 0, "the error's events are not the stream's")
            #expect(server.eventStreamRequests(key: "failing").count == 1, "neither reconnected nor retried")
            let failures = events.all.compactMap { event -> SwitchyardError? in
                if case .failed(let failure) = event.kind { return failure }
                return nil
            }
            #expect(failures.map(\.kind) == [.eventStreamRejected], "published as the exchange's failure")
        }
    }

    /// An error answered as an event stream that stays open: the stream fails at the head, without
    /// the chain's status validation waiting for the body's excerpt, and closes the connection.
    @Test(arguments: TransportKind.allCases)
    func anErrorEventStreamThatStaysOpenIsRejectedAtTheHeadAndClosed(_ kind: TransportKind) async throws {
        try await withLoopbackClient(kind, configuration: .standard) { client, server in
            let tag = "sse-500-open-\(kind)"
            let request = try Request(url: server.url("/events/open-error?status=500&open=1&tag=\(tag)"))
            let error = await #expect(throws: SwitchyardError.self) { try await collect(client.serverSentEvents(request, options: quick)) }
            #expect(error?.kind == .eventStreamRejected)
            #expect(error?.message.contains("500") == true, "\(error?.message ?? "")")
            #expect(await server.waitForDisconnect(tag: tag, timeout: .seconds(60)))
            #expect(server.eventStreamRequests(key: "open-error").count == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func cancellingTheReaderClosesTheConnection(_ kind: TransportKind) async throws {
        try await withLoopbackClient(kind, configuration: ClientConfiguration()) { client, server in
            let request = try Request(url: server.url("/events/open?total=5&open=1&tag=sse-open-\(kind)"))
            let firstArrived = AsyncStream.makeStream(of: Void.self)
            let reader = Task {
                for try await _ in client.serverSentEvents(request, options: quick) { firstArrived.continuation.yield() }
            }
            for await _ in firstArrived.stream { break }
            reader.cancel()
            #expect(await server.waitForDisconnect(tag: "sse-open-\(kind)", timeout: .seconds(60)))
            let outcome = await reader.result
            if case .failure(let error) = outcome { #expect((error as? SwitchyardError)?.kind == .cancelled) }
        }
    }

    @Test func reconnectionGivesUpAfterItsBudgetWithTheLastError() async throws {
        // A bare client (no retry link): every connection is closed before a response.
        try await withCurlClient { client, server in
            let options = EventStreamOptions(reconnectionDelay: .milliseconds(1), maximumReconnections: 2)
            let dead = try Request(url: server.url("/malformed/empty"))
            let error = await #expect(throws: SwitchyardError.self) { try await collect(client.serverSentEvents(dead, options: options)) }
            #expect(error?.kind != .eventStreamRejected)
            #expect(server.requestCount(path: "/malformed/empty") == 3, "the first connection and two reconnections")
        }
    }

    @Test func eachConnectionAsksForAnEventStreamThroughTheChainAndResumesByID() async throws {
        let seen = Mutex<[HTTPFields]>([])
        var configuration = ClientConfiguration()
        configuration.attemptInterceptors.append(
            ClosureInterceptor { request, _, next in
                seen.withLock { $0.append(request.head.headerFields) }
                return try await next(request)
            })
        try await withLoopbackClient(.curl, configuration: configuration) { client, server in
            let request = try Request(url: server.url("/events/headers?total=2&per_connection=1"))
            #expect(try await collect(client.serverSentEvents(request, options: quick)).count == 2)
        }
        let fields = seen.withLock { $0 }
        #expect(fields.count == 3)
        #expect(fields.allSatisfy { $0[.accept] == "text/event-stream" && $0[.cacheControl] == "no-cache" })
        #expect(fields.map { $0[HTTPField.Name("Last-Event-ID")!] } == [nil, "1", "2"])
    }
}
