import HTTPTypes
import Switchyard
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// Lifecycle and pop-up events of an assembled client, against the loopback server.
@Suite(.timeLimit(.minutes(2)))
struct PopUpEventsLoopbackTests {
    static func client(_ configuration: ClientConfiguration) throws -> Client {
        try Client(transport: CurlTransport(), configuration: configuration)
    }

    @Test func aSuccessfulCallPublishesStartedThenSucceeded() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let bus = EventBus()
        let events = CollectedEvents(bus)
        var stream = bus.subscribe().makeAsyncIterator()
        _ = try await Self.client(ClientConfiguration(events: bus)).send(try Request(url: server.url("/small")))
        #expect(events.names == ["started", "succeeded"])
        #expect(await stream.next()?.kind.name == "started")
        guard case .succeeded(let status)? = await stream.next()?.kind else {
            Issue.record("no succeeded event")
            return
        }
        #expect(status == 200)
    }

    @Test func aRejectedStatusPublishesAFailureWithAPopUp() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let bus = EventBus()
        let events = CollectedEvents(bus)
        let client = try Self.client(ClientConfiguration(events: bus, validation: StatusValidation(), retry: nil))
        let error = await #expect(throws: SwitchyardError.self) { try await client.send(try Request(url: server.url("/status/503"))) }
        #expect(error?.kind == .httpStatus)
        #expect(error?.response?.status.code == 503)
        #expect(events.names == ["started", "failed"])
        #expect(events.worthyPopUps.map(\.message) == ["The service is temporarily unavailable. Please try again later."])
    }

    @Test func aCancelledCallPublishesCancelledWithoutAPopUp() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let bus = EventBus()
        let events = CollectedEvents(bus)
        let client = try Self.client(ClientConfiguration(events: bus))
        let task = Task { try await client.send(try Request(url: server.url("/stall?tag=events"))) }
        while server.requestCount(path: "/stall") == 0 { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        _ = await task.result
        #expect(events.names == ["started", "cancelled"])
        #expect(events.all.allSatisfy { $0.popUp == nil })
    }

    @Test func aSilentRequestPublishesItsFailureWithoutAPopUp() async throws {
        let refusing = try RefusingPort()  // nothing listens: every call fails with connectionFailed
        let url = refusing.url("/small")
        defer { refusing.close() }
        let bus = EventBus()
        let events = CollectedEvents(bus)
        var request = try Request(url: url)
        request.options.isSilent = true
        _ = try? await Self.client(ClientConfiguration(events: bus, retry: nil)).send(request)
        #expect(events.names == ["started", "failed"])
        #expect(events.all.allSatisfy { $0.popUp == nil })
    }

    @Test func tenFailuresInABurstShowOnePopUp() async throws {
        let refusing = try RefusingPort()  // nothing listens: every call fails with connectionFailed
        let url = refusing.url("/small")
        defer { refusing.close() }
        let bus = EventBus()
        let events = CollectedEvents(bus)
        let client = try Self.client(ClientConfiguration(events: bus, popUps: PopUpPolicy(coalescingWindow: .seconds(60))))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<10 { group.addTask { _ = try? await client.send(try Request(url: url)) } }
        }
        #expect(events.names.filter { $0 == "failed" }.count == 10)
        #expect(events.worthyPopUps.count == 1)
        #expect(events.all.compactMap(\.popUp).map(\.coalescedCount).max() == 10)
    }

    @Test func aDepartmentsMessagesApplyOnlyInItsScope() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        var popUps = PopUpPolicy(coalescingWindow: .zero)
        popUps.add(
            RequestScope(pathPrefixes: ["/status"], tags: ["payments"]),
            PopUpMessages(statuses: [503: "Payments are paused. Your card was not charged."]))
        let bus = EventBus()
        let events = CollectedEvents(bus)
        let client = try Self.client(ClientConfiguration(events: bus, popUps: popUps, validation: StatusValidation(), retry: nil))
        var payments = try Request(url: server.url("/status/503"))
        payments.options.tags = ["payments"]
        _ = try? await client.send(payments)
        _ = try? await client.send(try Request(url: server.url("/status/503")))
        #expect(
            events.worthyPopUps.map(\.message) == [
                "Payments are paused. Your card was not charged.",
                "The service is temporarily unavailable. Please try again later."
            ])
    }

    @Test func aSubscriberThatNeverReadsNeitherBlocksNorGrows() async throws {
        let bus = EventBus()
        let stalled = bus.subscribe(bufferSize: 4)
        let head = HTTPRequest(method: .get, scheme: "http", authority: "example.com", path: "/")
        for index in 0..<1_000 {
            bus.publish(ExchangeEvent(kind: .started, exchangeID: UInt64(index), request: head))
        }
        #expect(bus.droppedEventCount == 996)
        var iterator = stalled.makeAsyncIterator()
        #expect(await iterator.next()?.exchangeID == 996, "the newest four events are kept")
    }

    @Test func aResponseSizeLimitAppliesWhileStreaming() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let client = try Self.client(ClientConfiguration(maxResponseBytes: 100_000))
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client.send(try Request(url: server.url("/bytes/5000000?framing=chunked&tag=limit")))
        }
        #expect(error?.kind == .responseTooLarge)
        #expect(await server.waitForDisconnect(tag: "limit", timeout: .seconds(5)))
        let small = try await client.send(try Request(url: server.url("/bytes/1000")))
        #expect(small.body.count == 1000)
    }
}
