import HTTPTypes
import Switchyard
import SwitchyardTestServer

extension TransportConformance {
    static let failureChecks: [ConformanceCheck] = [
        ConformanceCheck("connection-refused", .failures, "A port nobody listens on fails with connectionFailed") { h in
            let refusing = try RefusingPort()  // unlike a shut-down server's port, no other server can take it
            defer { refusing.close() }
            let url = refusing.url("/small")
            try await h.expectFailure(.connectionFailed, "a refused connection") { _ = try await h.client.send(try Request(url: url)) }
        },
        ConformanceCheck("reset-before-response", .failures, "A server resetting before answering fails with connectionFailed") { h in
            try await h.expectFailure(.connectionFailed, "a reset connection") {
                _ = try await h.client.send(try h.request(.get, "/reset"))
            }
        },
        ConformanceCheck("reset-mid-body", .failures, "A server resetting mid-body fails with connectionFailed, never a short body") { h in
            try await h.expectFailure(.connectionFailed, "a reset mid-body") { try await h.drain(try h.request(.get, "/reset?bytes=1000")) }
        },
        ConformanceCheck("closed-without-response", .failures, "A server closing without a response fails with connectionFailed") { h in
            try await h.expectFailure(.connectionFailed, "an empty reply") { try await h.drain(try h.request(.get, "/malformed/empty")) }
        },
        malformed("truncated-content-length", "truncated-length", "A body shorter than its Content-Length is a protocolViolation"),
        ConformanceCheck(
            "truncated-body-streamed", .failures, "A streamed body cut short ends the read with protocolViolation, never a short body"
        ) { h in
            // Content-Length 100 with 50 bytes sent; chunked with one 10-byte chunk and no last chunk.
            for (route, sent) in [("truncated-length", 50), ("truncated-chunked", 10)] {
                var received = 0
                try await h.expectFailure(.protocolViolation, "reading /malformed/\(route)") {
                    let response = try await h.client.stream(try h.request(.get, "/malformed/\(route)"))
                    for try await chunk in response.body { received += chunk.count }
                }
                try expect(received <= sent, "/malformed/\(route): \(received) bytes delivered, the server sent \(sent)")
            }
        },
        malformed("truncated-chunked", "truncated-chunked", "A chunked body cut before its last chunk is a protocolViolation"),
        malformed("malformed-status-line", "status-line", "A malformed status line is a protocolViolation"),
        malformed("garbage-response", "garbage", "A reply that is not HTTP is a protocolViolation"),
        malformed("malformed-header-line", "header-line", "A header line without a colon is a protocolViolation"),
        malformed("bad-chunk-framing", "bad-chunk", "A chunk size that is not hexadecimal is a protocolViolation"),
        malformed("conflicting-content-length", "content-length-mismatch", "Conflicting Content-Length fields are a protocolViolation"),
        ConformanceCheck("broken-gzip", .failures, "A corrupt gzip body is a protocolViolation") { h in
            try await h.expectFailure(.protocolViolation, "/gzip/broken") {
                _ = try await h.client.send(try h.request(.get, "/gzip/broken"))
            }
        },
        // The server stops sending partway and holds the connection open: a transport that refuses
        // the body must close the connection itself, and one that goes on reading is seen (the
        // connection stays open), however fast the loopback delivers what was sent. The deadline only
        // bounds a transport that waits for the whole body: it then fails with timeout.
        ConformanceCheck(
            "response-too-large-declared", .failures,
            "A declared length over maxResponseBytes fails with responseTooLarge and closes the connection"
        ) { h in
            let request = try limited(h, "/bytes/\(16 << 20)?tag=declared&stall_at=65536")
            try await h.expectFailure(.responseTooLarge, "16 MiB with a 1 MiB limit") { _ = try await h.client.send(request) }
            try await h.expectDisconnect(tag: "declared", after: "refusing the body")
        },
        ConformanceCheck(
            "response-too-large-streamed", .failures,
            "A chunked body growing past maxResponseBytes fails with responseTooLarge and closes the connection"
        ) { h in
            let request = try limited(h, "/bytes/\(64 << 20)?framing=chunked&tag=streamed&stall_at=\(4 << 20)")
            let response = try await h.client.stream(request)
            try await h.expectFailure(.responseTooLarge, "64 MiB chunked with a 1 MiB limit") {
                for try await _ in response.body {}
            }
            try await h.expectDisconnect(tag: "streamed", after: "refusing the body")
        },
        responseTooLargeInEveryFraming,
        responseTooLargeAtTheTransport
    ]

    /// A 2 MB body under a 100 kB limit, in each framing: the error may come from `stream` (the
    /// declared length) or from the read, and no more than the limit reaches the reader.
    static let responseTooLargeInEveryFraming = ConformanceCheck(
        "response-too-large-any-framing", .failures,
        "A body over maxResponseBytes fails with responseTooLarge in every framing, delivering no more than the limit"
    ) { h in
        for framing in ["content-length", "chunked", "close"] {
            let request = try h.request(.get, "/bytes/2000000?framing=\(framing)", options: RequestOptions(maxResponseBytes: 100_000))
            var received = 0
            try await h.expectFailure(.responseTooLarge, "2 MB \(framing) with a 100 kB limit") {
                let response = try await h.client.stream(request)
                for try await chunk in response.body { received += chunk.count }
            }
            try expect(received <= 100_000, "\(framing): \(received) bytes delivered past a 100 kB limit")
        }
    }

    /// The limit is the transport's own: sent without any client, a declared length over it fails.
    static let responseTooLargeAtTheTransport = ConformanceCheck(
        "response-too-large-transport-alone", .failures,
        "Sent straight to the transport, a declared length over maxResponseBytes fails with responseTooLarge"
    ) { h in
        let request = try h.request(.get, "/bytes/2000000", options: RequestOptions(maxResponseBytes: 1_000))
        try await h.expectFailure(.responseTooLarge, "2 MB declared with a 1 kB limit") {
            _ = try await h.transport.send(request, context: ExchangeContext(options: request.options))
        }
    }

    /// A GET for `pathAndQuery` limited to 1 MiB of response body, with a 60 s deadline that only
    /// bounds a transport waiting for a whole body the server never finishes.
    static func limited(_ h: ConformanceHarness, _ pathAndQuery: String) throws -> Request {
        var options = RequestOptions()
        options.maxResponseBytes = 1 << 20
        options.timeout = .seconds(60)
        return try h.request(.get, pathAndQuery, options: options)
    }

    static func malformed(_ id: String, _ route: String, _ summary: String) -> ConformanceCheck {
        ConformanceCheck(id, .failures, summary) { h in
            try await h.expectFailure(.protocolViolation, "/malformed/\(route)") {
                _ = try await h.client.send(try h.request(.get, "/malformed/\(route)"))
            }
        }
    }
}
