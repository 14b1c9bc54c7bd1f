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
            #expect(error?.kind == .httpStatus, "the standard chain's status validation")
        }
        try await withLoopbackClient(.curl, configuration: ClientConfiguration()) { client, server in
            let error = await #expect(throws: SwitchyardError.self) {
                try await collect(client.serverSentEvents(try Request(url: server.url("/status/404")), options: quick))
            }
            #expect(error?.kind == .eventStreamRejected)
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
