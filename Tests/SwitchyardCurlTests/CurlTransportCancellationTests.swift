import HTTPTypes
import Switchyard
import SwitchyardCurl
import SwitchyardTestServer
import Testing

@Suite(.timeLimit(.minutes(2))) struct CurlTransportCancellationTests {
    @Test func cancellingWhileWaitingForTheHeadClosesTheConnection() async throws {
        try await withCurlClient { client, server in
            let task = Task { try await client.send(try Request(url: server.url("/stall?tag=head"))) }
            while server.requestCount(path: "/stall") == 0 { try await Task.sleep(for: .milliseconds(5)) }
            task.cancel()
            let result = await task.result
            guard case .failure(let error as SwitchyardError) = result else {
                Issue.record("expected cancellation, got \(result)")
                return
            }
            #expect(error.kind == .cancelled)
            #expect(await server.waitForDisconnect(tag: "head", timeout: .seconds(5)))
        }
    }

    @Test func cancellingMidBodyClosesTheConnection() async throws {
        try await withCurlClient { client, server in
            let response = try await client.stream(try Request(url: server.url("/stall-body?tag=body&bytes=4096")))
            let reader = Task {
                var received = 0
                for try await chunk in response.body { received += chunk.count }
                return received
            }
            try await Task.sleep(for: .milliseconds(20))
            #expect(!server.hasDisconnected(tag: "body"))
            reader.cancel()
            let result = await reader.result
            guard case .failure(let error as SwitchyardError) = result else {
                Issue.record("expected cancellation, got \(result)")
                return
            }
            #expect(error.kind == .cancelled)
            #expect(await server.waitForDisconnect(tag: "body", timeout: .seconds(5)))
        }
    }

    @Test func droppingAStreamedBodyClosesTheConnection() async throws {
        try await withCurlClient { client, server in
            do {
                let response = try await client.stream(try Request(url: server.url("/bytes/50000000?tag=dropped")))
                #expect(response.head.status == .ok)
            }
            #expect(await server.waitForDisconnect(tag: "dropped", timeout: .seconds(5)))
        }
    }

    @Test func cancellationBeforeSendingSendsNothing() async throws {
        try await withCurlClient { client, server in
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await client.send(try Request(url: server.url("/echo")))
            }
            let result = await task.result
            guard case .failure(let error as SwitchyardError) = result else {
                Issue.record("expected cancellation, got \(result)")
                return
            }
            #expect(error.kind == .cancelled)
            #expect(server.requestCount(path: "/echo") == 0)
        }
    }
}

@Suite(.timeLimit(.minutes(2))) struct CurlTransportQueueTests {
    /// One connection per host: the second and third requests wait in libcurl's queue behind a stalled one.
    private static let singleConnection = CurlTransport.Configuration(maxConnectionsPerHost: 1)

    @Test func aDeadlineExpiresWhileQueued() async throws {
        try await withCurlClient(configuration: Self.singleConnection) { client, server in
            let blocker = Task { try await client.send(try Request(url: server.url("/stall?tag=blocker"))) }
            while server.requestCount(path: "/stall") == 0 { try await Task.sleep(for: .milliseconds(5)) }
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
        try await withCurlClient(configuration: Self.singleConnection) { client, server in
            let blocker = Task { try await client.send(try Request(url: server.url("/stall?tag=blocker"))) }
            while server.requestCount(path: "/stall") == 0 { try await Task.sleep(for: .milliseconds(5)) }
            let queued = Task { try await client.send(try Request(url: server.url("/echo"))) }
            try await Task.sleep(for: .milliseconds(50))
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
