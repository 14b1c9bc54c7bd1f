import HTTPTypes
import Switchyard
import SwitchyardTestServer
import SwitchyardURLSession
import Testing

@Suite(.timeLimit(.minutes(2))) struct URLSessionTransportCancellationTests {
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
            #expect(await server.waitForDisconnect(tag: "upload", timeout: .seconds(60)))
            #endif
            // Other requests were never stalled by the unfinished upload.
            _ = try await client.send(try Request(url: server.url("/small")))
            continuation.finish()
        }
    }
}
