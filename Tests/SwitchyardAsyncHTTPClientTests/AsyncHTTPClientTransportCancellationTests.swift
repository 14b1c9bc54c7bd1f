import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct AsyncHTTPClientTransportCancellationTests {
    @Test func cancellingMidBodyWithADeadlineClosesTheConnection() async throws {
        try await withAHCClient { client, server in
            var request = try Request(url: server.url("/stall-body?tag=body-with-deadline&bytes=4096"))
            request.options.timeout = .seconds(60)
            let response = try await client.stream(request)
            let reader = Task {
                for try await _ in response.body {}
            }
            try await Task.sleep(for: .milliseconds(20))
            reader.cancel()
            guard case .failure(let error as SwitchyardError) = await reader.result else {
                Issue.record("expected cancellation")
                return
            }
            #expect(error.kind == .cancelled)
            #expect(await server.waitForDisconnect(tag: "body-with-deadline", timeout: .seconds(60)))
        }
    }

    @Test func droppingAStalledBodyUnreadClosesTheConnection() async throws {
        try await withAHCClient { client, server in
            do {
                let response = try await client.stream(try Request(url: server.url("/stall-body?tag=stalled-dropped")))
                #expect(response.head.status == .ok)
            }
            #expect(await server.waitForDisconnect(tag: "stalled-dropped", timeout: .seconds(60)))
        }
    }

    @Test func abandoningAPartlyReadBodyClosesTheConnection() async throws {
        try await withAHCClient { client, server in
            do {
                let response = try await client.stream(try Request(url: server.url("/bytes/50000000?tag=abandoned")))
                var iterator = response.body.makeAsyncIterator()
                let first = try await iterator.next()
                #expect(first?.isEmpty == false)
            }
            #expect(await server.waitForDisconnect(tag: "abandoned", timeout: .seconds(60)))
        }
    }

    @Test func cancellingDirectlyAtTheTransportBeforeSendingSendsNothing() async throws {
        try await withAHCClient { _, server in
            let transport = AsyncHTTPClientTransport()
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await transport.send(try Request(url: server.url("/echo")), context: ExchangeContext())
            }
            let result = await task.result
            guard case .failure(let error as SwitchyardError) = result else {
                Issue.record("expected cancellation, got \(result)")
                return
            }
            #expect(error.kind == .cancelled)
            #expect(server.requestCount(path: "/echo") == 0)
            try await transport.shutdown()
        }
    }
}

@Suite(.timeLimit(.minutes(2))) struct AsyncHTTPClientTransportQueueTests {
    /// One connection per host: later requests wait in AsyncHTTPClient's queue behind a stalled one.
    private static let singleConnection = AsyncHTTPClientTransport.Configuration(
        maxConnectionsPerHost: 1,
        httpVersion: .http1_1)

    @Test func aDeadlineExpiresWhileQueued() async throws {
        try await withAHCClient(configuration: Self.singleConnection) { client, server in
            let blocker = Task { try await client.send(try Request(url: server.url("/stall?tag=blocker"))) }
            #expect(await eventually { server.requestCount(path: "/stall") == 1 })
            var queued = try Request(url: server.url("/small"))
            queued.options.timeout = .milliseconds(200)
            let error = await failure(of: client, queued)
            #expect(error?.kind == .timeout)
            #expect(server.requestCount(path: "/small") == 0)
            blocker.cancel()
            _ = await blocker.result
        }
    }

    @Test func cancellingAQueuedRequestSendsNothing() async throws {
        let probe = SuspensionProbe()
        let transport = ProbedTransport(AsyncHTTPClientTransport(configuration: Self.singleConnection), probe: probe)
        try await withLoopbackClient(transport: transport, shutdown: { try await $0.shutdown() }) { client, server in
            let blocker = Task { try await client.send(try Request(url: server.url("/stall?tag=blocker"))) }
            try #require(await eventually { server.requestCount(path: "/stall") == 1 })
            let queued = probe.task { try await client.send(try Request(url: server.url("/echo"))) }
            // Queued, proven rather than slept for: AsyncHTTPClient's `execute` suspends only after it has
            // put the request into the host's connection pool (synchronously, under the pool's lock),
            // whose one connection the blocker occupies.
            try #require(await probe.suspendedAfterMark(), "the queued request never waited in the transport")
            #expect(server.requestCount(path: "/echo") == 0)
            queued.cancel()
            guard case .failure(let error as SwitchyardError) = await queued.result else {
                Issue.record("expected the queued request to be cancelled")
                return
            }
            #expect(error.kind == .cancelled)
            blocker.cancel()
            _ = await blocker.result
            // The freed connection must not carry the cancelled request afterwards.
            _ = try await client.send(try Request(url: server.url("/small")))
            #expect(server.requestCount(path: "/echo") == 0)
        }
    }
}
