import HTTPTypes
import Switchyard
import SwitchyardConformance
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

    /// Large streamed bodies are spooled to a file on Linux. corelibs' own file upload trapped the
    /// whole process (`try!` on `curl_easy_pause`, EasyHandle.swift) when a transfer ended while
    /// it waited for the file; uploads cancelled at spread moments must simply end.
    @Test func uploadsCancelledAtAnyMomentEndWithoutTrappingTheProcess() async throws {
        try await withURLSessionClient { client, server in
            for round in 0..<30 {
                let body = PatternBody.stream(count: 4 << 20, declaresLength: round.isMultiple(of: 2))
                let request = try Request(method: .post, url: server.url("/echo"), body: body)
                let upload = Task { try await client.send(request) }
                try await Task.sleep(for: .milliseconds(round))
                upload.cancel()
                switch await upload.result {
                case .success(let response): #expect(response.head.status == .ok)
                case .failure(let error): #expect((error as? SwitchyardError)?.kind == .cancelled)
                }
            }
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
