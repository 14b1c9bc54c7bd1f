import HTTPTypes
import Switchyard
import SwitchyardTestServer
import SwitchyardURLSession
import Testing

@Suite(.timeLimit(.minutes(2))) struct URLSessionTransportCancellationTests {
    @Test func cancellingWhileWaitingForTheHeadClosesTheConnection() async throws {
        try await withURLSessionClient { client, server in
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
        try await withURLSessionClient { client, server in
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

    /// A body libcurl is still receiving: dropping it closes the connection. (corelibs reads ahead at
    /// network speed, so a body that has fully arrived is simply discarded, its connection kept.)
    @Test func droppingAStreamedBodyClosesTheConnection() async throws {
        try await withURLSessionClient { client, server in
            do {
                let response = try await client.stream(try Request(url: server.url("/stall-body?tag=dropped&bytes=100000")))
                #expect(response.head.status == .ok)
            }
            #expect(await server.waitForDisconnect(tag: "dropped", timeout: .seconds(5)))
        }
    }

    @Test func droppingALargeBodyStopsIt() async throws {
        try await withURLSessionClient { client, server in
            do {
                let response = try await client.stream(try Request(url: server.url("/bytes/50000000")))
                #expect(response.head.status == .ok)
            }
            // Whatever had arrived is thrown away; the transport stays usable.
            let next = try await client.send(try Request(url: server.url("/small")))
            #expect(next.text == "hello, world\n")
        }
    }

    @Test func cancellationBeforeSendingSendsNothing() async throws {
        try await withURLSessionClient { client, server in
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

    @Test func cancellingAStalledStreamedUploadClosesTheConnection() async throws {
        try await withURLSessionClient { client, server in
            // The producer yields one chunk and then never finishes: the upload waits for it.
            let (chunks, continuation) = AsyncStream<ArraySlice<UInt8>>.makeStream()
            continuation.yield(ArraySlice(repeating: 7, count: 1000))
            let request = try Request(method: .post, url: server.url("/echo?tag=upload"), body: HTTPBody(chunks))
            let task = Task { try await client.send(request) }
            try await Task.sleep(for: .milliseconds(200))
            task.cancel()
            let result = await task.result
            guard case .failure(let error as SwitchyardError) = result else {
                Issue.record("expected cancellation, got \(result)")
                return
            }
            #expect(error.kind == .cancelled)
            #if canImport(FoundationNetworking)
            // Linux spools a streamed body before sending (documented): nothing reached the server.
            #expect(server.requestCount(path: "/echo") == 0)
            #else
            #expect(await server.waitForDisconnect(tag: "upload", timeout: .seconds(5)))
            #endif
            // Other requests were never stalled by the unfinished upload.
            _ = try await client.send(try Request(url: server.url("/small")))
            continuation.finish()
        }
    }
}
