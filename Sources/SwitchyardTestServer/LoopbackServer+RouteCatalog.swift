extension LoopbackServer {
    /// One route of the test server, in a line: for `yard serve --help` and for people trying the
    /// server by hand. The full rules are in the route table's documentation (`Router`).
    public struct RouteSummary: Sendable {
        /// The route's path pattern, e.g. `/status/{code}`.
        public let pattern: String
        /// What it answers, in a few words.
        public let summary: String
        /// A concrete path that answers at once without a test's help (`nil` for routes that hold,
        /// stall, reset or need HTTP/2).
        public let example: String?
    }

    /// Every route family of the server, in the order of the route table.
    public static let routeCatalog: [RouteSummary] = [
        .init(pattern: "/small", summary: "200 text/plain `hello, world`", example: "/small"),
        .init(pattern: "/status/{code}", summary: "that status with a short body", example: "/status/418"),
        .init(pattern: "/delay/{ms}", summary: "200 after ms milliseconds", example: "/delay/1"),
        .init(pattern: "/echo[/{path}]", summary: "200 JSON: method, URI, headers in order, body length and SHA-256", example: "/echo/a/b"),
        .init(pattern: "/echo/body?status=S", summary: "the request body back, with status S", example: "/echo/body"),
        .init(pattern: "/gunzip", summary: "the request body decoded from gzip, zstd or br, as JSON figures", example: "/gunzip"),
        .init(pattern: "/auth/{key}", summary: "200 with the key's bearer token, else 401", example: "/auth/demo"),
        .init(
            pattern: "/bytes/{n}?framing=&delay_ms=&stall_at=", summary: "n pattern bytes; ranges, ETag, framing choices",
            example: "/bytes/1024"),
        .init(pattern: "/upload/multipart", summary: "a multipart/form-data body parsed as it streams, as JSON", example: nil),
        .init(pattern: "/upload/sink/{key}", summary: "the request body's length and SHA-256", example: "/upload/sink/demo"),
        .init(pattern: "/resumable/{key}[/uploads/{id}]", summary: "resumable uploads (draft-ietf-httpbis-resumable-upload)", example: nil),
        .init(pattern: "/hold/{key}/{n}", summary: "held until the test releases the key, then /bytes/{n}", example: nil),
        .init(pattern: "/stall", summary: "reads the request, never answers", example: nil),
        .init(pattern: "/soak/{id}?size=N", summary: "N bytes determined by id, with their SHA-256", example: "/soak/demo"),
        .init(pattern: "/stall-body?bytes=N", summary: "a head promising 1 GB, N bytes, then nothing", example: nil),
        .init(pattern: "/flaky/{key}/{n}", summary: "503 with Retry-After: 0 for the first n attempts, then 200", example: "/flaky/help/0"),
        .init(pattern: "/idempotent/{key}/{n}", summary: "as /flaky, echoing the Idempotency-Key", example: "/idempotent/help/0"),
        .init(
            pattern: "/pages/{key}?page=&size=&style=", summary: "a paged JSON list (flag, total, short or cursor)",
            example: "/pages/help?page=1"),
        .init(
            pattern: "/cache/{key}?max_age=&etag=&vary=…", summary: "cacheable answers with validators; 304 on a match",
            example: "/cache/help?max_age=60"),
        .init(
            pattern: "/cache-mode/{key}/{mode}", summary: "how /cache/{key} answers next: ok, stall or a status",
            example: "/cache-mode/help/ok"),
        .init(
            pattern: "/cache-fields/{key}?field=Name:Value", summary: "200 with those fields verbatim",
            example: "/cache-fields/help?field=X-A:1"),
        .init(pattern: "/gate/{key}?id=X", summary: "held until the test releases the key, then 200 X", example: nil),
        .init(pattern: "/retry-after/{value}", summary: "503 with Retry-After: value", example: "/retry-after/1"),
        .init(pattern: "/redirect/{n}", summary: "n redirects, then 200", example: "/redirect/2"),
        .init(pattern: "/redirect-to?location=URL&status=302", summary: "one redirect to URL", example: "/redirect-to?location=/small"),
        .init(
            pattern: "/cookies/set?cookie=V", summary: "Set-Cookie: V (repeatable), optionally with a redirect",
            example: "/cookies/set?cookie=a%3D1"),
        .init(pattern: "/cookies/echo[/{path}]", summary: "the request's Cookie fields", example: "/cookies/echo"),
        .init(
            pattern: "/events/{key}?total=&type=&content_type=&status=",
            summary: "a server-sent event stream that resumes from Last-Event-ID",
            example: "/events/help?total=2"),
        .init(pattern: "/ws/{mode}", summary: "a WebSocket peer: echo, fragments, ping, close, oversized, abrupt, flood", example: nil),
        .init(pattern: "/ndjson?count=N&bad_line=K", summary: "N JSON lines, line K broken", example: "/ndjson"),
        .init(pattern: "/headers/many?count=N", summary: "N header fields", example: "/headers/many?count=3"),
        .init(pattern: "/headers/giant?bytes=N", summary: "one header field of N bytes", example: "/headers/giant?bytes=10"),
        .init(pattern: "/early-hints", summary: "103 Early Hints, then 200", example: "/early-hints"),
        .init(pattern: "/http10?bytes=N", summary: "an HTTP/1.0 answer ended by close", example: "/http10"),
        .init(pattern: "/reset[?bytes=N]", summary: "a TCP reset, before or after N body bytes", example: nil),
        .init(pattern: "/gzip[/broken|truncated|double|bomb]", summary: "gzip bodies, whole and hostile", example: "/gzip"),
        .init(pattern: "/deflate", summary: "a deflate body", example: "/deflate"),
        .init(pattern: "/coded/{br,zstd}/…", summary: "brotli and zstd bodies, whole and hostile", example: "/coded/zstd/text"),
        .init(pattern: "/interim-flood?count=N", summary: "N interim 103 answers, then 200", example: nil),
        .init(pattern: "/malformed/…", summary: "broken status lines, headers, framing and lengths", example: nil),
        .init(pattern: "/h2/{refuse,goaway,reset-after,goaway-after}/{key}/{n}", summary: "HTTP/2 stream faults", example: nil)
    ]

    /// ``routeCatalog`` as aligned text, one route a line.
    public static var routeCatalogText: String {
        let width = routeCatalog.map(\.pattern.count).max() ?? 0
        return routeCatalog.map { route in
            route.pattern + String(repeating: " ", count: width - route.pattern.count + 2) + route.summary
        }.joined(separator: "\n")
    }
}
