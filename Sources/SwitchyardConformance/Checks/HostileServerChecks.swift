import HTTPTypes
import Switchyard
import SwitchyardTestServer

extension TransportConformance {
    /// Servers written to break clients: compression bombs, unfinished or stacked codings,
    /// ambiguous framing, odd status codes and oversized heads. Every transport must answer each
    /// with the same typed result, never a crash, a short body passed off as complete, or
    /// unbounded memory.
    static let hostileServerChecks: [ConformanceCheck] = [
        ConformanceCheck(
            "decoded-size-limit", .failures, "A small gzip or deflate body inflating past maxResponseBytes fails with responseTooLarge"
        ) { h in
            for encoding in ["gzip", "deflate"] {
                var options = RequestOptions()
                options.maxResponseBytes = 1_000_000
                let request = try h.request(.get, "/gzip/bomb?bytes=\(10 << 20)&encoding=\(encoding)", options: options)
                try await h.expectFailure(.responseTooLarge, "a 10 MiB \(encoding) body with a 1 MB limit") { try await h.drain(request) }
            }
        },
        ConformanceCheck("decoded-within-limit", .failures, "A compressed body whose decoded size is within maxResponseBytes arrives whole")
        { h in
            var options = RequestOptions()
            options.maxResponseBytes = 2 << 20
            let response = try await h.send(try h.request(.get, "/gzip/bomb?bytes=\(1 << 20)", options: options))
            try expectEqual(response.body.count, 1 << 20, "decoded bytes")
            try expect(response.body.allSatisfy { $0 == 0 }, "the decoded body is the zeros that were compressed")
        },
        ConformanceCheck("unfinished-gzip", .failures, "A gzip stream that stops before its end is a protocolViolation, not a short body") {
            h in
            try await h.expectFailure(.protocolViolation, "/gzip/truncated") { try await h.drain(try h.request(.get, "/gzip/truncated")) }
        },
        ConformanceCheck("stacked-codings", .responseBodies, "Content-Encoding: gzip, gzip is decoded twice") { h in
            let response = try await h.get("/gzip/double")
            try expectEqual(response.text, String(repeating: "hello, gzip\n", count: 100), "doubly decoded body")
            try expectEqual(response.head.headerFields[.contentEncoding], nil, "Content-Encoding after decoding")
        },
        ConformanceCheck(
            "unknown-coding-untouched", .responseBodies,
            "A coding the transport does not decode (br) arrives as sent, Content-Encoding intact"
        ) { h in
            let response = try await h.get("/br/invalid")
            try expectEqual(response.text, "this is not brotli", "body of an undecoded coding")
            try expectEqual(response.head.headerFields[.contentEncoding], "br", "Content-Encoding kept")
        },
        malformed(
            "content-length-last-wins", "content-length-last-wins",
            "Two different Content-Length fields are a protocolViolation, whichever comes last"),
        malformed("content-length-list", "content-length-list", "A Content-Length list of different values is a protocolViolation"),
        malformed("content-length-unparseable", "content-length-huge", "A Content-Length too large to parse is a protocolViolation"),
        malformed("unasked-switching-protocols", "switching-protocols", "An unasked 101 Switching Protocols is a protocolViolation"),
        malformed("status-below-100", "status-099", "A status code below 100 is a protocolViolation"),
        malformed("bare-lf-line-endings", "bare-lf", "Head lines ending in a bare LF instead of CR LF are a protocolViolation"),
        ConformanceCheck("chunked-trailers", .responseBodies, "A chunked body followed by trailer fields arrives whole") { h in
            let response = try await h.get("/malformed/trailers")
            try expectEqual(response.text, "hello", "body before the trailers")
        },
        ConformanceCheck("giant-head", .failures, "A response head over 80 KiB is a protocolViolation naming the limit") { h in
            let error = try await h.expectFailure(.protocolViolation, "a 200 KB header") {
                try await h.drain(try h.request(.get, "/headers/giant?bytes=200000"))
            }
            try expect(error.message.contains("KiB"), "the message names the limit: \(error.message)")
        },
        ConformanceCheck("interim-flood", .failures, "100,000 interim responses before the final one are a protocolViolation") { h in
            try await h.expectFailure(.protocolViolation, "/interim-flood") { try await h.drain(try h.request(.get, "/interim-flood")) }
        },
        lenient("no-reason-phrase", "A status line without a reason phrase is accepted"),
        lenient("latin1-header", "A header value that is not UTF-8 is accepted"),
        ConformanceCheck("empty-location", .statuses, "A 302 with an empty Location is returned as it is (the chain decides)") { h in
            let response = try await h.get("/redirect-to?location=")
            try expectEqual(response.head.status.code, 302, "status")
        }
    ]

    /// A response that is odd but valid enough that every transport must deliver it.
    private static func lenient(_ route: String, _ summary: String) -> ConformanceCheck {
        ConformanceCheck(route, .statuses, summary) { h in
            let response = try await h.get("/malformed/\(route)")
            try expectEqual(response.head.status.code, 200, "status of /malformed/\(route)")
            try expectEqual(response.text, "ok", "body of /malformed/\(route)")
        }
    }
}
