import HTTPTypes
import Switchyard
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardTraffic
import Testing

/// A configuration with this connectivity source, a bus, no redirects, and `retry`.
private func connectivityConfiguration(
    _ source: ManualConnectivitySource, retry: RetryPolicy? = nil, attemptInterceptors: [any Interceptor] = []
) -> (ClientConfiguration, CollectedEvents) {
    let bus = EventBus()
    var configuration = ClientConfiguration(
        events: bus, redirects: nil, retry: retry, retryBudget: nil,
        attemptInterceptors: attemptInterceptors)
    configuration.plugins.append(.connectivity(source))
    return (configuration, CollectedEvents(bus))
}

/// A request for `path` that waits for connectivity, with an optional timeout.
private func waitingRequest(_ server: LoopbackServer, _ path: String, timeout: Duration? = nil) throws -> Request {
    var request = try Request(url: server.url(path))
    request.options.waitsForConnectivity = true
    request.options.timeout = timeout
    return request
}

/// Fails attempt 1 with a connection failure before it reaches the wire; later attempts go on.
private final class FirstAttemptOffline: Interceptor {
    let attempts = Lock<[Int]>([])
    func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        attempts.withLock { $0.append(context.attempt) }
        if context.attempt == 1 { throw SwitchyardError.connectionFailed("The network is down (simulated).") }
        return try await next(request)
    }
}

@Suite(.timeLimit(.minutes(2))) struct ConnectivityLoopbackTests {
    @Test(arguments: TransportKind.allCases)
    func aWaitingRequestGoesOutWhenTheNetworkReturns(_ kind: TransportKind) async throws {
        let source = ManualConnectivitySource(.offline)
        let (configuration, events) = connectivityConfiguration(source)
        try await withTrafficTestClient(kind, configuration: configuration) { client, server in
            let request = try waitingRequest(server, "/small")
            let call = Task { try await client.send(request) }
            #expect(await eventually { events.names.contains("waitingForConnectivity") })
            #expect(server.requestCount(path: "/small") == 0)
            source.status = .online
            let response = try await call.value
            #expect(response.text == "hello, world\n")
            #expect(server.requestCount(path: "/small") == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aWaitingRequestTimesOutAtItsDeadlineWhileOffline(_ kind: TransportKind) async throws {
        let source = ManualConnectivitySource(.offline)
        let (configuration, events) = connectivityConfiguration(source)
        try await withTrafficTestClient(kind, configuration: configuration) { client, server in
            let error = await failure(of: client, try waitingRequest(server, "/small", timeout: .milliseconds(200)))
            #expect(error?.kind == .timeout)
            #expect(error?.message.contains("network") == true)
            #expect(server.requestCount(path: "/small") == 0)
            #expect(events.names == ["started", "waitingForConnectivity", "failed"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aWaitingRequestIsCancellable(_ kind: TransportKind) async throws {
        let source = ManualConnectivitySource(.offline)
        let (configuration, events) = connectivityConfiguration(source)
        try await withTrafficTestClient(kind, configuration: configuration) { client, server in
            let request = try waitingRequest(server, "/small")
            let call = Task { try await client.send(request) }
            #expect(await eventually { events.names.contains("waitingForConnectivity") })
            call.cancel()
            let error = await #expect(throws: SwitchyardError.self) { try await call.value }
            #expect(error?.kind == .cancelled)
            #expect(server.requestCount(path: "/small") == 0)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func requestsThatDoNotWaitAreSentWhileTheSourceSaysOffline(_ kind: TransportKind) async throws {
        let source = ManualConnectivitySource(.offline)
        let (configuration, events) = connectivityConfiguration(source)
        try await withTrafficTestClient(kind, configuration: configuration) { client, server in
            let response = try await client.send(try Request(url: server.url("/small")))
            #expect(response.head.status == .ok)
            #expect(!events.names.contains("waitingForConnectivity"))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func retryWaitsForTheNetworkInsteadOfSpendingAttempts(_ kind: TransportKind) async throws {
        let source = ManualConnectivitySource(.offline)
        let offline = FirstAttemptOffline()
        let retry = RetryPolicy(maxAttempts: 3, backoff: RetryBackoff(random: { 0 }))
        let (configuration, events) = connectivityConfiguration(source, retry: retry, attemptInterceptors: [offline])
        try await withTrafficTestClient(kind, configuration: configuration) { client, server in
            let call = Task { try await client.send(try Request(url: server.url("/small"))) }
            #expect(await eventually { events.names.contains("waitingForConnectivity") })
            // Offline after attempt 1: no attempt is spent until the network is back.
            #expect(offline.attempts.withLock { $0 } == [1])
            source.status = .online
            let response = try await call.value
            #expect(response.head.status == .ok)
            #expect(offline.attempts.withLock { $0 } == [1, 2])
            #expect(server.requestCount(path: "/small") == 1)
            #expect(events.names == ["started", "waitingForConnectivity", "retrying", "succeeded"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func retryReturnsTheLastErrorWhenTheNetworkStaysDown(_ kind: TransportKind) async throws {
        let source = ManualConnectivitySource(.offline)
        let offline = FirstAttemptOffline()
        var retry = RetryPolicy(maxAttempts: 3, backoff: RetryBackoff(random: { 0 }))
        retry.maxConnectivityWait = .milliseconds(100)
        let (configuration, _) = connectivityConfiguration(source, retry: retry, attemptInterceptors: [offline])
        try await withTrafficTestClient(kind, configuration: configuration) { client, server in
            let error = await failure(of: client, try Request(url: server.url("/small")))
            #expect(error?.kind == .connectionFailed)
            #expect(error?.attempt == 1)
            #expect(offline.attempts.withLock { $0 } == [1])
            #expect(server.requestCount(path: "/small") == 0)
        }
    }

    @Test func cancellingDuringTheRetrysWaitEndsTheCall() async throws {
        let source = ManualConnectivitySource(.offline)
        let offline = FirstAttemptOffline()
        let (configuration, events) = connectivityConfiguration(source, retry: RetryPolicy(maxAttempts: 3), attemptInterceptors: [offline])
        try await withTrafficTestClient(.curl, configuration: configuration) { client, server in
            let call = Task { try await client.send(try Request(url: server.url("/small"))) }
            #expect(await eventually { events.names.contains("waitingForConnectivity") })
            call.cancel()
            let error = await #expect(throws: SwitchyardError.self) { try await call.value }
            #expect(error?.kind == .cancelled)
            #expect(offline.attempts.withLock { $0 } == [1])
        }
    }
}
