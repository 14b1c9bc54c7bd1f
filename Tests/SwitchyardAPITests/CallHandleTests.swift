import HTTPTypes
import Switchyard
import SwitchyardAPI
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@Suite struct CallHandleTests {
    @Test func cancellingBeforeStartNeverTouchesTheWire() async throws {
        try await withAPI { api, server in
            let handle = api.prepare(Endpoint<String>(.get, "/echo/not-started", decoding: .text))
            #expect(handle.state.name == "notStarted")
            handle.cancel()
            #expect(handle.state.name == "cancelled")
            handle.start()
            #expect(await handle.result().name == "cancelled")
            let error = await #expect(throws: SwitchyardError.self) { try await handle.value }
            #expect(error?.kind == .cancelled)
            // A call that did start, after it, proves the server was reachable and counting.
            _ = try await api.value(Endpoint<String>(.get, "/echo/started", decoding: .text))
            #expect(server.requestCount(path: "/echo/started") == 1)
            #expect(server.requestCount(path: "/echo/not-started") == 0)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func cancellingInFlightClosesTheConnection(_ kind: TransportKind) async throws {
        try await withAPI(kind) { api, server in
            let handle = api.call(Endpoint<String>(.get, "/stall", decoding: .text).query("tag", "in-flight"))
            let states = Lock<[String]>([])
            let watcher = Task { for await state in handle.states { states.withLock { $0.append(state.name) } } }
            #expect(await eventually { server.requestCount(path: "/stall") == 1 })
            handle.cancel()
            #expect(await handle.result().name == "cancelled")
            #expect(await server.waitForDisconnect(tag: "in-flight", timeout: .seconds(60)))
            await watcher.value
            #expect(states.withLock { $0 } == ["running", "cancelled"])
        }
    }

    @Test func cancellingDuringARetryBackOffEndsTheCall() async throws {
        var configuration = ClientConfiguration()
        configuration.retry = RetryPolicy(maxAttempts: 3)
        try await withAPI(configuration: configuration) { api, server in
            // The first attempt fails with `Retry-After: 25`: the call then waits in back-off.
            let handle = api.call(Endpoint<String>(.get, "/flaky/backoff/2", decoding: .text).query("retry-after", 25))
            #expect(await eventually { server.flakyArrivals(key: "backoff").count == 1 })
            handle.cancel()
            #expect(await handle.result().name == "cancelled")
            #expect(server.flakyArrivals(key: "backoff").count == 1)
        }
    }

    @Test func cancellingWhileQueuedBeforeTheTransportNeverSends() async throws {
        let gate = Gate()
        var configuration = ClientConfiguration()
        configuration.callInterceptors = [gate]
        try await withAPI(configuration: configuration) { api, server in
            let handle = api.call(Endpoint<String>(.get, "/echo/queued", decoding: .text))
            await gate.waitUntilEntered()
            handle.cancel()
            #expect(await handle.result().name == "cancelled")
            #expect(server.requestCount(path: "/echo/queued") == 0)
        }
    }

    @Test func cancellingTheAwaitingTaskCancelsTheCall() async throws {
        try await withAPI { api, server in
            let handle = api.prepare(Endpoint<String>(.get, "/stall", decoding: .text).query("tag", "awaiting"))
            let waiter = Task { try await handle.value }
            #expect(await eventually { server.requestCount(path: "/stall") == 1 })
            waiter.cancel()
            let error = await #expect(throws: SwitchyardError.self) { try await waiter.value }
            #expect(error?.kind == .cancelled)
            #expect(await handle.result().name == "cancelled")
            #expect(await server.waitForDisconnect(tag: "awaiting", timeout: .seconds(60)))
        }
    }

    @Test func cancelFromManyThreadsEndsOnceAndLaterCallsAreHarmless() async throws {
        try await withAPI { api, _ in
            let handle = api.call(Endpoint<String>(.get, "/stall", decoding: .text))
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<16 { group.addTask { handle.cancel() } }
            }
            #expect(await handle.result().name == "cancelled")
            handle.cancel()
            handle.start()
            #expect(handle.state.name == "cancelled")
        }
    }

    @Test func aFinishedHandleReportsItsStateToLateObservers() async throws {
        try await withAPI { api, _ in
            let handle = api.call(Endpoint<String>(.get, "/small", decoding: .text))
            let text = try await handle.value
            #expect(text == "hello, world\n")
            var seen: [String] = []
            for await state in handle.states { seen.append(state.name) }
            #expect(seen == ["succeeded"])
        }
    }
}

/// A call interceptor that holds every call until cancelled: a stand-in for a queue in front of the wire.
final class Gate: Interceptor {
    private let entered = Lock(false)

    func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        entered.withLock { $0 = true }
        while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
        throw SwitchyardError.cancelled
    }

    func waitUntilEntered() async {
        _ = await eventually { entered.withLock { $0 } }
    }
}
