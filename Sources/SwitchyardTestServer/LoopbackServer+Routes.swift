import NIOCore
import NIOHTTP1

/// The route table of ``LoopbackServer``.
///
/// Any method is accepted on every route; `HEAD` gets the same head as `GET` and no body.
/// Every route accepts `?tag=X`: the connection that served it is then tracked under `X`
/// (``LoopbackServer/waitForDisconnect(tag:timeout:)``, ``LoopbackServer/hasDisconnected(tag:)``).
/// Invalid numbers in paths or queries give `400`. Responses use `Content-Length` unless stated.
///
/// | Route | Response |
/// |---|---|
/// | `/small` | 200 `text/plain` `hello, world\n` (13 bytes); precomputed bytes |
/// | `/status/{code}` | `{code}` with body `status {code}\n`; 1xx → 400; 204: no body, no `Content-Length`; 304: no body, `Content-Length: 11` (the length a 200 would have) |
/// | `/delay/{ms}` | waits `ms` (≤ 3600000; event-loop timer, no thread blocked), then 200 `delayed {ms}\n` |
/// | `/echo`, `/echo/{any/path}` | 200 `application/json`: `{"method","uri","version","headers":[[name,value],…],"body_length","body_sha256"}`; headers in received order and case |
/// | `/echo/body?status=S` | `S` (default 200, 200…599) with the request body (≤ 64 MiB, else 413 + close) and its `Content-Type` |
/// | `/gunzip` | 200 `application/json` `{"content_encoding","received_length","length","sha256"}`: the request body (≤ 64 MiB) decoded from `Content-Encoding: gzip`, `zstd` or `br` (as received without one); 400 when it does not decode |
/// | `/auth/{key}` | 200 `ok {key}\n` when `Authorization` is exactly `Bearer {token}` for the key's token (``LoopbackServer/setAuthToken(_:key:)``), else 401 `unauthorized\n` with `WWW-Authenticate: Bearer`; counts per key: ``LoopbackServer/authRequests(key:)`` |
/// | `POST /token/{key}` | issues the key's next token `{key}-{n}` and makes it the only one `/auth/{key}` accepts: `{"access_token": "{key}-{n}", "expires_in": 3600}`; ``LoopbackServer/issuedTokens(key:)`` counts them |
/// | `/bytes/{n}` | 200 `application/octet-stream`, `n` bytes, byte `i` = `i % 251`; `?framing=content-length` (default) \| `chunked` \| `close` (no length, `Connection: close`, body ends at close); `?delay_ms=D` waits before the head; `?stall_at=K` stops sending at body offset K and leaves the connection open (every framing; chunked without its last chunk); streamed in 64 KiB pieces with back-pressure |
/// | `/bytes/{n}` ranges | content-length framing: `ETag: "bytes-{n}"` (`?version=V`: `"bytes-{n}-vV"`, a changed resource), `Accept-Ranges: bytes`; `Range: bytes=S-` / `bytes=S-E` → 206 + `Content-Range` unless `If-Range` differs from the `ETag` (then 200); start ≥ n → 416 `Content-Range: bytes */n`; `?ranges=ignore` → always the full 200; `?cut_after=K` closes the connection after K body bytes; `?stall_at=K` stops sending at body offset K (connection left open; not for responses starting at or past K). The `Range` of every tagged request: ``LoopbackServer/rangeHeaders(tag:)``. Logic in `RangedBytes` |
/// | `/upload/multipart` | parses a `multipart/form-data` body as it streams in (bounded memory) and answers 200 `application/json` `{"parts":[{"name","filename","content_type","bytes","sha256","value"}]}` (`filename`/`content_type` `null` when absent; `value` is the text of parts without a filename, up to 4 KiB, else `null`); 400 `{"error":…}` for a malformed body. Logic in `MultipartParser`, `MultipartRoute` |
/// | `/upload/sink/{key}?hold=1` | a target without resumable uploads: 200 `application/json` `{"length","sha256"}` of the request body; `OPTIONS` 204 without `Accept-Patch`; with `hold=1` the server stops reading the body of a request other than `OPTIONS` right after the head until the test lets `sink-{key}` through (``LoopbackServer/release(key:count:)``) |
/// | `/resumable/{key}?hold_at=K&cut_at=K` | a target with resumable uploads (draft-ietf-httpbis-resumable-upload-10, interop version 8; in memory, ≤ 64 MiB each): `OPTIONS` 204 `Accept-Patch: application/partial-upload`; a request with `Upload-Complete: ?0` creates an upload resource (201 `Location: /resumable/{key}/uploads/{id}`, `Upload-Offset`), with `?1` and the whole body answers like the plain target plus `Upload-Complete: ?1`; without `Upload-Complete` it is the plain target. Bodies are stored as they arrive. `hold_at=K`: the first append stops reading once `K` bytes are stored (until a newer request for the upload); `cut_at=K`: the first append's connection is closed once `K` bytes are stored |
/// | `/resumable/{key}/uploads/{id}` | the upload resource: `HEAD` 204 `Upload-Offset`, `Upload-Complete`, `Upload-Length`, `Cache-Control: no-store`; `PATCH` (`Content-Type: application/partial-upload`, `Upload-Offset`, `Upload-Complete`) appends (409 with the right `Upload-Offset` when it differs; on completion the target's answer plus `Upload-Complete: ?1`, else 204); `DELETE` 204. A newer request ends an append still in progress. Figures: ``LoopbackServer/resumableUploads(key:)``. Logic in `ResumableUploads`, `ResumableUploadRoute` |
/// | `/hold/{key}/{n}` | waits, without a timer, until the test lets `key` through (``LoopbackServer/release(key:count:)``; at once once released), then answers exactly as `/bytes/{n}` with content-length framing (ranges, `?stall_at=K`, `?cut_after=K` included); count arrivals with ``LoopbackServer/requestCount(path:)`` |
/// | `/stall` | reads the request, never answers |
/// | `/soak/{id}?size=N` | any method: 200 `application/octet-stream`, `N` (default 1024, ≤ 16 MiB) bytes deterministic from `id` and `N` (``SoakBody/bytes(id:size:)``), `X-Soak-SHA256` (their SHA-256), `X-Soak-Arrival` (arrivals of `id` so far, this one included) and, for methods other than GET and HEAD, `X-Soak-Request-SHA256` (SHA-256 of the request body received); arrivals per id: ``LoopbackServer/soakArrivals(id:)``, ``LoopbackServer/takeSoakArrivals(id:)``; `?fault=reset` records the arrival, then resets the connection without answering. With ``LoopbackServer/Configuration/faults`` every route, this one included, may misbehave (``FaultPlan``) |
/// | `/stall-body?bytes=N` | 200 head with `Content-Length: 1000000000`, `N` (default 1024) pattern bytes, then nothing |
/// | `/flaky/{key}/{n}` | attempts 1…n for `key`: `status` (default 503) with `Retry-After: 0` and body `fail {attempt}\n`; later: 200 `ok after {n}\n`. `?status=S` (400–599) picks the failure status; `?retry-after=V` sends `Retry-After: V` instead of `0` (empty: no header). Arrivals per key: ``LoopbackServer/flakyArrivals(key:)`` |
/// | `/idempotent/{key}/{n}` | as `/flaky/{key}/{n}` (503 `Retry-After: 0`, then 200) with the request's `Idempotency-Key` `K` in the body (`fail {attempt} key={K}\n`, `ok after {n} key={K}\n`; `-` for none); arrivals counted under the flaky keys `{key}` and `{key} {K}` (``LoopbackServer/flakyArrivals(key:)``). Logic in `IdempotencyRoute` |
/// | `/pages/{key}?page=N&size=M&style=flag\|total\|short\|cursor&total=95&insert=2&fail=3&hold=2&max_age=60` | 200 `application/json` page `N` of a list of `total` items, `{"data":{"items":[{"id","title"}],"page",…}}` with `has_next` (flag), `total` (total), nothing (short) or `next_cursor` (cursor); `insert` new items go to the list's top before each page after the first; the first request for page `fail` gets 500, for page `hold` no answer (tag `pages-{key}-held`); `max_age` adds `Cache-Control: max-age=N`; more in `PagedListRoute`. Pages asked per key: ``LoopbackServer/pageRequests(key:)`` |
/// | `/pages/{key}/empty` | 200 `{"data":{"items":[],"has_next":false,"total":0}}` |
/// | `/pages/{key}/no-content` | 204, no body |
/// | `/cache/{key}?max_age=N&cache_control=V&no_store=1&etag=E&last_modified=D&expires=D&date=D&vary=H&status=S` | `status` (default 200) with those cache fields and `X-Request-Number: n` (requests for the key so far); body `{key} #{m}\n` (`m`: full responses for the key) plus ` H={value}` with `vary`; `If-None-Match: "E"` or `If-Modified-Since: D` → 304 with the fields refreshed; more in `CacheRoutes` |
/// | `/cache-mode/{key}/{mode}` | sets how `/cache/{key}` answers from now on: `ok`, `stall` (never answers) or a status `S` (`S` with body `fail\n`); also ``LoopbackServer/setCacheMode(_:key:)`` |
/// | `/cache-fields/{key}?field=Name:Value&bytes=N&hold_after=K` | 200 with each `field` verbatim and `X-Request-Number: n` (requests for the path so far); body `{key} #{n}\n`, or with `bytes` `N` pattern bytes under `ETag: "{key}-{X-Version}"` answering a single `Range` with 206; requests after the `K`th held until ``LoopbackServer/release(key:count:)``; more in `CacheFieldRoutes` |
/// | `/gate/{key}?id=X` | held until the test lets it through (``LoopbackServer/release(key:count:)``), then 200 `{X}\n`; per key: arrival order of the ids, requests held, most in progress at once (``LoopbackServer/gate(key:)``) |
/// | `/retry-after/{value}` | 503 `Retry-After: {value}` `retry after {value}\n` |
/// | `/redirect/{n}` | n > 0: 302 `Location: /redirect/{n-1}` (empty body); n = 0: 200 `redirected\n` |
/// | `/redirect-to?location=URL&status=302` | `status` (300–399, default 302) with `Location: URL` (percent-decoded); `location` required |
/// | `/cookies/set?cookie=V&cookie=W&location=URL&status=S` | `Set-Cookie: V`, `Set-Cookie: W` (each percent-decoded, in order); with `location`, `status` (default 302) and `Location: URL`, else `status` (default 200) with body `set\n` |
/// | `/cookies/echo`, `/cookies/echo/{any/path}` | 200 `text/plain`: the request's `Cookie` fields, one per line without a final newline (empty body when none) |
/// | `/events/{key}?total=N&per_connection=M&retry=MS&cut=1&open=1&type=T&content_type=C&pad=P&status=S` | an event stream (`Connection: close`, no length): a comment, `retry: MS` with `retry`, then events `id: i` (`event: T` with `type`) `data: event i` (then a space and `P` × `x` with `pad`) from `Last-Event-ID` + 1 (or 1), at most `M` (default all `N`, default 10); then the connection closes, with `cut=1` in the middle of the next event, or stays open with `open=1`; `204` once all `N` were sent. `Content-Type` is `C` (default `text/event-stream`); the status is `S` (200…599 but 204 and 304, default 200) over the same events, e.g. `status=500` for an error answered as an event stream. The `Last-Event-ID` of each request: ``LoopbackServer/eventStreamRequests(key:)``. Logic in `EventStreamRoutes` |
/// | `/ws/{mode}?key=K&size=N&count=C` | HTTP/1.1 only: a WebSocket handshake answered 101, then a peer: `echo` (each message back whole; pings answered; a close echoed), `fragments` (each message back in three fragments), `ping` (a ping first, then echo), `close` (close 4000 first), `oversized` (one binary message of `N` bytes, default 2 MiB, first), `abrupt` (TCP closed without a close frame after the first message), `rfc-hello` (the two compressed `Hello` messages of RFC 7692 §7.2.3.2), `flood` (`count` binary messages of `N` bytes, default 100, written only while the socket takes them, then `flooded:COUNT` in the log); permessage-deflate accepted when offered (`deflate=off` declines, `extensions=V` answers `V`), messages compressed both ways and logged as `message:N deflated from W`; 400 without `Upgrade: websocket` and a key. What the peers of `K` saw: ``LoopbackServer/webSocketLog(key:)``. Logic in `WebSocketPeer` |
/// | `/ndjson?count=N&bad_line=K` | 200 `application/x-ndjson`: `N` (default 3) lines `{"n":i}`, line `K` replaced by `not json` |
/// | `/headers/many?count=N` | 200 with `X-Header-{i}: value-{i}` for i in 1…N (default 100), `Set-Cookie: a=1`, `Set-Cookie: b=2`, `X-MiXeD-CaSe: yes`; body `ok\n` |
/// | `/headers/giant?bytes=N` | 200 with `X-Giant:` + N × `a` (default 100000); body `ok\n` |
/// | `/early-hints` | `103 Early Hints` with `Link: </style.css>; rel=preload`, then 200 `hints\n` |
/// | `/http10?bytes=N` | `HTTP/1.0 200 OK` without length, `N` (default 1000, ≤ 16 MiB) pattern bytes, close |
/// | `/reset` | reads the request, then resets the connection (TCP RST) without answering |
/// | `/reset?bytes=N` | 200 head with `Content-Length: 1000000000`, `N` pattern bytes, then a reset |
/// | `/gzip` | 200 `Content-Encoding: gzip`, decodes to `hello, gzip\n` × 100 |
/// | `/deflate` | same with `Content-Encoding: deflate` (zlib-wrapped) |
/// | `/gzip/broken` | `/gzip` bytes with 3 bytes in the middle inverted, correct `Content-Length` |
/// | `/gzip/truncated` | the first 60 % of the `/gzip` bytes (an unfinished stream), correct `Content-Length` |
/// | `/gzip/double` | `Content-Encoding: gzip, gzip`: `/gzip`'s text compressed twice |
/// | `/gzip/bomb?bytes=N` | `N` (default 10 MiB, ≤ 4 GiB) zero bytes gzip-compressed at level 9 (about 1,000 : 1); `&encoding=deflate` for zlib-wrapped `deflate` |
/// | `/br/invalid` | `Content-Encoding: br` over bytes that are not brotli |
/// | `/coded/{br,zstd}/text?layers=L` | `Content-Encoding: C` (`C, C` … for `L` layers, default 1), decodes to `hello, C\n` × 1,000 |
/// | `/coded/{br,zstd}/binary?bytes=N` | `N` (default 1 MiB) pattern bytes (byte `i` is `i % 251`) compressed |
/// | `/coded/zstd/frames?bytes=N&count=C` | `N` (default 300,000) pattern bytes as `C` (default 3) concatenated zstd frames |
/// | `/coded/{br,zstd}/bomb?bytes=N` | `N` (default 10 MiB) zero bytes compressed at a high level |
/// | `/coded/{br,zstd}/broken`, `truncated`, `trailing` | the text body with 3 bytes inverted (the library refuses it), cut at 60 %, or followed by `trailing garbage` |
/// | `/coded/unknown` | `Content-Encoding: x-unknown` over `plain bytes\n` |
/// | `/interim-flood?count=N` | `N` (default 100,000) `103` interim responses, then 200 `ok`, close |
/// | `/malformed/status-line` | `HTTP/1.1 2x0 OK\r\nContent-Length: 2\r\n\r\nok`, close |
/// | `/malformed/garbage` | `this is not http\r\n\r\n`, close |
/// | `/malformed/header-line` | `HTTP/1.1 200 OK\r\nthis line has no colon\r\nContent-Length: 2\r\n\r\nok`, close |
/// | `/malformed/truncated-length` | `Content-Length: 100`, 50 pattern bytes, close |
/// | `/malformed/truncated-chunked` | chunked, one 10-byte chunk, close without `0\r\n\r\n` |
/// | `/malformed/bad-chunk` | chunked with chunk-size line `zz`, close |
/// | `/malformed/content-length-mismatch` | `Content-Length: 5` and `Content-Length: 7`, 5-byte body, close |
/// | `/malformed/content-length-last-wins` | `Content-Length: 10` then `Content-Length: 5`, 5-byte body, close |
/// | `/malformed/content-length-list` | `Content-Length: 1, 2`, body `ab`, close |
/// | `/malformed/content-length-huge` | `Content-Length: 99999999999999999999999`, body `hello`, close |
/// | `/malformed/trailers` | chunked `hello` followed by a trailer field `X-Checksum`, close |
/// | `/malformed/status-099`, `status-050`, `status-000` | that status code with body `ok`, close |
/// | `/malformed/switching-protocols` | an unasked `101 Switching Protocols`, close |
/// | `/malformed/no-reason-phrase` | `HTTP/1.1 200` (no reason phrase), body `ok`, close |
/// | `/malformed/bare-lf` | head lines ending in LF only, body `ok`, close |
/// | `/malformed/latin1-header` | `X-Name: caf` + byte 0xE9 (not UTF-8), body `ok`, close |
/// | `/malformed/empty` | close without sending anything |
/// | `/h2/refuse/{key}/{n}` | HTTP/2 only: the first `n` requests for `key` get `RST_STREAM(REFUSED_STREAM)` as soon as their `HEADERS` arrive (body unread, not processed; counted as refused); later ones are processed and answered 200 `ok {key} #{processed}\n` |
/// | `/h2/goaway/{key}/{n}` | HTTP/2 only: for the first `n`, a `GOAWAY` (`NO_ERROR`) whose last-stream-id is below the request's stream (so it was provably not processed; counted as refused), then the connection closes; later: as `refuse` |
/// | `/h2/reset-after/{key}/{n}` | HTTP/2 only: the first `n` requests are read completely and counted as processed, then get `RST_STREAM(INTERNAL_ERROR)` instead of a response (they may have had an effect); later: 200 as `refuse` |
/// | `/h2/goaway-after/{key}/{n}` | HTTP/2 only: the first `n` are read and counted as processed, then a `GOAWAY` (`NO_ERROR`) whose last-stream-id includes the stream, and the connection closes before a response; later: 200 as `refuse` |
/// | `/h2/…` figures | per key: processed, refused, each processed body's length (``LoopbackServer/http2Faults(key:)``); over HTTP/1.1 these routes answer 400 `HTTP/2 only\n`. Logic in `HTTP2Faults`, framing in `HTTP2FaultHandler` |
/// | anything else | 404 `not found\n` |
enum Router {
    /// Upper bound for generated bodies and header sizes, to keep typos from exhausting memory.
    static let maxGeneratedHeaderBytes = 64 * 1024 * 1024

    /// Picks the action for `request`. Runs on the connection's event loop.
    static func route(_ request: IncomingRequest, state: ServerState) -> RouteAction {
        let target = request.target
        if target.path == "/small" { return .small }
        let parts = target.components
        switch (parts.first ?? "", parts.count) {
        case ("status", 2): return status(parts[1])
        case ("delay", 2):
            guard let ms = integer(parts[1], limit: 3_600_000) else { return badRequest }
            return .delayed(milliseconds: ms, then: .text(200, "delayed \(ms)\n"))
        case ("echo", 2) where parts[1] == "body":
            // The handler closes the connection after a 413.
            if request.isTooLarge { return .text(413, "body too large\n") }
            let status = request.target.value("status").flatMap { Int($0) }.flatMap { (200...599).contains($0) ? $0 : nil } ?? 200
            return .bytes(status, request.body ?? ByteBuffer(), contentType: request.head.headers.first(name: "Content-Type"))
        case ("echo", _):
            return .text(200, EchoResponse.json(for: request), contentType: "application/json")
        case ("gunzip", 1): return GunzipRoute.action(request)
        case ("auth", 2):
            return state.authTokens.action(key: String(parts[1]), authorization: request.head.headers["Authorization"])
        case ("token", 2) where request.head.method == .POST:
            return state.authTokens.issue(key: String(parts[1]))
        case ("bytes", 2): return bytes(parts[1], request)
        case ("upload", 2) where parts[1] == "multipart": return MultipartRoute.action(for: request)
        case ("upload", 3) where parts[1] == "sink":
            if request.head.method == .OPTIONS {
                return .respond(ResponseHead(status: 204, headers: [("Allow", "OPTIONS, POST, PUT")]), body: ByteBuffer())
            }
            return ResumableUploadRoute.digestAnswer(length: request.bodyLength, sha256: request.bodyDigest(), headers: [])
        case ("resumable", 2), ("resumable", 4): return ResumableUploadRoute.action(request, state: state)
        case ("hold", 3):
            guard let count = integer(parts[2]) else { return badRequest }
            return .held(key: String(parts[1]), id: target.value("id") ?? "", then: RangedBytes.action(count: count, request: request))
        case ("stall", 1): return .stall
        case ("soak", 2): return SoakRoute.action(request, id: parts[1], state: state)
        case ("stall-body", 1):
            guard let count = optionalInteger(target, "bytes", default: 1024, limit: 999_999_999) else { return badRequest }
            return .stallBody(bytes: count)
        case ("flaky", 3): return flaky(key: parts[1], failures: parts[2], target, state: state)
        case ("idempotent", 3): return IdempotencyRoute.action(request, key: parts[1], failures: parts[2], state: state)
        case ("pages", 2), ("pages", 3): return PagedListRoute.action(parts, target, state: state)
        case ("cache", 2): return CacheRoutes.action(request, key: parts[1], state: state)
        case ("cache-mode", 3): return CacheRoutes.setMode(parts, state: state)
        case ("cache-fields", 2): return CacheFieldRoutes.action(request, key: parts[1], state: state)
        case ("gate", 2):
            let id = target.value("id") ?? ""
            return .held(key: String(parts[1]), id: id, then: .text(200, "\(id)\n"))
        case ("retry-after", 2):
            let value = percentDecode(parts[1])
            guard !value.isEmpty, isHeaderSafe(value) else { return badRequest }
            return .text(503, "retry after \(value)\n", headers: [("Retry-After", value)])
        case ("ws", 2): return WebSocketPeer.action(request, mode: parts[1])
        case ("events", 2): return EventStreamRoutes.events(request, key: parts[1], state: state)
        case ("ndjson", 1): return EventStreamRoutes.jsonLines(target)
        case ("redirect", 2):
            guard let n = integer(parts[1]) else { return badRequest }
            if n == 0 { return .text(200, "redirected\n") }
            return .respond(
                ResponseHead(status: 302, headers: [("Location", "/redirect/\(n - 1)"), ("Content-Length", "0")]), body: ByteBuffer())
        case ("redirect-to", 1):
            guard let location = target.value("location"), isHeaderSafe(location),
                let code = optionalInteger(target, "status", default: 302, limit: 399), code >= 300
            else { return badRequest }
            return .respond(ResponseHead(status: code, headers: [("Location", location), ("Content-Length", "0")]), body: ByteBuffer())
        case ("cookies", 2) where parts[1] == "set":
            let cookies = target.values("cookie")
            let location = target.value("location")
            guard cookies.allSatisfy(isHeaderSafe), location.map(isHeaderSafe) ?? true,
                let code = optionalInteger(target, "status", default: location == nil ? 200 : 302, limit: 599), code >= 200
            else { return badRequest }
            var headers = cookies.map { (name: "Set-Cookie", value: $0) }
            if let location { headers.append(("Location", location)) }
            return .text(code, location == nil ? "set\n" : "", headers: headers)
        case ("cookies", 2...) where parts[1] == "echo":
            return .text(200, request.head.headers["Cookie"].joined(separator: "\n"))
        case ("headers", 2) where parts[1] == "many":
            guard let count = optionalInteger(target, "count", default: 100, limit: 100_000) else { return badRequest }
            var headers: [(name: String, value: String)] = []
            headers.reserveCapacity(count + 3)
            for i in stride(from: 1, through: count, by: 1) { headers.append(("X-Header-\(i)", "value-\(i)")) }
            headers += [("Set-Cookie", "a=1"), ("Set-Cookie", "b=2"), ("X-MiXeD-CaSe", "yes")]
            return .text(200, "ok\n", headers: headers)
        case ("headers", 2) where parts[1] == "giant":
            guard let count = optionalInteger(target, "bytes", default: 100_000, limit: maxGeneratedHeaderBytes) else { return badRequest }
            return .text(200, "ok\n", headers: [("X-Giant", String(repeating: "a", count: count))])
        case ("early-hints", 1):
            return .interim(earlyHints, then: .text(200, "hints\n"))
        case ("http10", 1):
            guard let count = optionalInteger(target, "bytes", default: 1000, limit: 16 << 20) else { return badRequest }
            var buffer = ByteBuffer(string: "HTTP/1.0 200 OK\r\nContent-Type: application/octet-stream\r\n\r\n")
            BodyPattern.append(count: count, to: &buffer)
            return .raw(buffer)
        case ("reset", 1):
            guard target.value("bytes") != nil else { return .reset(bytesBeforeReset: nil) }
            guard let count = optionalInteger(target, "bytes", default: 0, limit: 16 << 20) else { return badRequest }
            return .reset(bytesBeforeReset: count)
        case ("gzip", 1):
            return .bytes(200, GzipFixtures.gzipBuffer, contentType: "text/plain", headers: [("Content-Encoding", "gzip")])
        case ("gzip", 2) where parts[1] == "broken":
            return .bytes(200, GzipFixtures.brokenGzipBuffer, contentType: "text/plain", headers: [("Content-Encoding", "gzip")])
        case ("gzip", 2) where parts[1] == "bomb":
            guard let count = optionalInteger(target, "bytes", default: 10 << 20, limit: 4 << 30) else { return badRequest }
            let zlib = target.value("encoding") == "deflate"
            return .bytes(
                200, Deflate.zeros(count: count, zlibWrapper: zlib), contentType: "application/octet-stream",
                headers: [("Content-Encoding", zlib ? "deflate" : "gzip")])
        case ("gzip", 2) where parts[1] == "truncated":
            return .bytes(200, GzipFixtures.truncatedGzipBuffer, contentType: "text/plain", headers: [("Content-Encoding", "gzip")])
        case ("gzip", 2) where parts[1] == "double":
            return .bytes(
                200, GzipFixtures.doubleGzipBuffer, contentType: "text/plain",
                headers: [("Content-Encoding", "gzip, gzip")])
        case ("coded", 2), ("coded", 3):
            return CodedRoute.action(coding: parts[1], variant: parts.count == 3 ? parts[2] : "", target: target) ?? notFound
        case ("br", 2) where parts[1] == "invalid":
            return .bytes(
                200, ByteBuffer(string: "this is not brotli"), contentType: "text/plain",
                headers: [("Content-Encoding", "br")])
        case ("interim-flood", 1):
            guard let count = optionalInteger(target, "count", default: 100_000, limit: 1_000_000) else { return badRequest }
            return .raw(MalformedResponses.interimFlood(count: count))
        case ("deflate", 1):
            return .bytes(200, GzipFixtures.deflateBuffer, contentType: "text/plain", headers: [("Content-Encoding", "deflate")])
        case ("h2", _):
            // Served by `HTTP2FaultHandler` before the codec on HTTP/2 streams; never reaches here there.
            return .text(400, "HTTP/2 only\n")
        case ("malformed", 2):
            switch MalformedResponses.bytes(for: parts[1]) {
            case .some(.some(let bytes)): return .raw(bytes)
            case .some(.none): return .close
            case .none: return notFound
            }
        default:
            return notFound
        }
    }

    /// A complete `103 Early Hints` interim response.
    static let earlyHints = ByteBuffer(string: "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n")

    static var notFound: RouteAction { .text(404, "not found\n") }
    static var badRequest: RouteAction { .text(400, "bad request\n") }

    private static func status(_ text: Substring) -> RouteAction {
        guard let code = integer(text), (100...999).contains(code) else { return badRequest }
        switch code {
        case 100...199: return .text(400, "informational status \(code) not supported\n")
        case 204: return .respond(ResponseHead(status: 204), body: ByteBuffer())
        case 304:
            let wouldBe = "status 304\n".utf8.count
            return .respond(ResponseHead(status: 304, headers: [("Content-Length", String(wouldBe))]), body: ByteBuffer())
        default: return .text(code, "status \(code)\n")
        }
    }

    private static func flaky(key: Substring, failures: Substring, _ target: RequestTarget, state: ServerState) -> RouteAction {
        let retryAfter = target.value("retry-after") ?? "0"
        guard let n = integer(failures), isHeaderSafe(retryAfter),
            let status = optionalInteger(target, "status", default: 503, limit: 599), status >= 400
        else { return badRequest }
        let attempt = state.nextFlakyAttempt(key: String(key))
        guard attempt <= n else { return .text(200, "ok after \(n)\n") }
        return .text(status, "fail \(attempt)\n", headers: retryAfter.isEmpty ? [] : [("Retry-After", retryAfter)])
    }

    private static func bytes(_ text: Substring, _ request: IncomingRequest) -> RouteAction {
        let target = request.target
        guard let count = integer(text) else { return badRequest }
        let framing: RouteAction.Framing
        switch target.value("framing") {
        case nil, "content-length", "length": framing = .contentLength
        case "chunked": framing = .chunked
        case "close": framing = .close
        default: return badRequest
        }
        guard let delay = optionalInteger(target, "delay_ms", default: 0, limit: 3_600_000),
            let stallAt = optionalInteger(target, "stall_at", default: Int.max, limit: Int.max)
        else { return badRequest }
        let action =
            framing == .contentLength
            ? RangedBytes.action(count: count, request: request)
            : RouteAction.pattern(count: count, framing: framing, stallAt: stallAt == Int.max ? nil : stallAt)
        return delay > 0 ? .delayed(milliseconds: delay, then: action) : action
    }

    /// A non-negative decimal integer ≤ `limit`.
    private static func integer(_ text: Substring, limit: Int = .max) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let value = Int(text), value <= limit
        else { return nil }
        return value
    }

    /// Query parameter `name` as an integer, `fallback` when absent, `nil` when invalid.
    static func optionalInteger(_ target: RequestTarget, _ name: String, default fallback: Int, limit: Int) -> Int? {
        guard let text = target.value(name) else { return fallback }
        return integer(text[...], limit: limit)
    }

    /// No CR, LF or NUL — the value cannot break out of its header line.
    private static func isHeaderSafe(_ value: String) -> Bool {
        !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }
}
