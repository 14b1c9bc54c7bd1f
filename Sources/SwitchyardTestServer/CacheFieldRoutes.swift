import NIOCore
import NIOHTTP1

/// The `/cache-fields/{key}` route: a response with exactly the header fields a test names, for
/// cache tests that need what `/cache/{key}` does not send (a list-valued `Age`, two `Expires`
/// fields, `Set-Cookie` beside `Cache-Control`), a byte resource with ranges whose validator the
/// request chooses (two requests for one URL can see two versions of it), and revalidations held
/// until the test lets them through.
///
/// Query parameters (all optional, percent-decoded):
/// - `field=Name:Value` (repeatable): that field, verbatim and in order (split at the first `:`).
/// - `bytes=N` (≤ 16 MiB): the body is `N` pattern bytes (byte `i` = `i % 251`) with
///   `Accept-Ranges: bytes` and `ETag: "{key}-{V}"`, `V` being the request's `X-Version` (default
///   `1`); `Range: bytes=S-` or `bytes=S-E` gets `206` with `Content-Range` (`416` for a start at
///   or past `N`) unless `If-Range` differs from that `ETag`. Without `bytes` the body is
///   `{key} #{n}\n`.
/// - `hold_after=K`: requests after the `K`th for this path wait until the test lets `{key}`
///   through (``LoopbackServer/release(key:count:)``; ``LoopbackServer/gate(key:)`` counts them).
///
/// Every response carries `X-Request-Number: n`, `n` being the requests for this path so far
/// (``LoopbackServer/requestCount(path:)``, this one included).
enum CacheFieldRoutes {
    /// `/cache-fields/{key}`.
    static func action(_ request: IncomingRequest, key: Substring, state: ServerState) -> RouteAction {
        let target = request.target
        let number = state.requestCount(path: String(target.path))
        var fields: [(name: String, value: String)] = [("X-Request-Number", String(number))]
        for field in target.values("field") {
            guard let colon = field.firstIndex(of: ":"), colon != field.startIndex else { return Router.badRequest }
            let value = field[field.index(after: colon)...].drop { $0 == " " }
            fields.append((String(field[..<colon]), String(value)))
        }
        guard fields.allSatisfy({ isHeaderSafe($0.name) && isHeaderSafe($0.value) && !$0.name.contains(" ") }),
            let holdAfter = Router.optionalInteger(target, "hold_after", default: .max, limit: .max)
        else { return Router.badRequest }

        let action: RouteAction
        if target.value("bytes") != nil {
            guard let count = Router.optionalInteger(target, "bytes", default: 0, limit: 16 << 20) else {
                return Router.badRequest
            }
            action = ranged(count: count, key: key, fields: fields, request: request)
        } else {
            action = .text(200, "\(key) #\(number)\n", headers: fields)
        }
        return number > holdAfter ? .held(key: String(key), id: String(number), then: action) : action
    }

    /// `count` pattern bytes, or the part of them a single `Range` asks for.
    private static func ranged(
        count: Int, key: Substring, fields: [(name: String, value: String)], request: IncomingRequest
    ) -> RouteAction {
        let headers = request.head.headers
        let version = headers.first(name: "X-Version") ?? "1"
        guard isHeaderSafe(version), !version.contains("\"") else { return Router.badRequest }
        let eTag = "\"\(key)-\(version)\""
        var head = ResponseHead(status: 200, headers: fields)
        head.add("Content-Type", "application/octet-stream")
        head.add("ETag", eTag)
        head.add("Accept-Ranges", "bytes")
        var start = 0
        var end = count
        let ifRange = headers.first(name: "If-Range").map { $0.strippingBlanks() }
        if let range = headers.first(name: "Range"), ifRange == nil || ifRange == eTag,
            let (first, last) = RangedBytes.parse(range)
        {
            guard first < count else {
                var refusal = ResponseHead(status: 416, headers: fields)
                refusal.add("Content-Range", "bytes */\(count)")
                refusal.add("Content-Length", "0")
                return .respond(refusal, body: ByteBuffer())
            }
            start = first
            end = min(count, (last ?? count - 1) + 1)
            head.status = 206
            head.add("Content-Range", "bytes \(start)-\(end - 1)/\(count)")
        }
        head.add("Content-Length", String(end - start))
        return .patternSlice(RangedBytes.Plan(head: head, start: start, end: end, cutAfter: nil, stallAt: nil))
    }

    /// No CR, LF or NUL: the text cannot break out of its header line.
    private static func isHeaderSafe(_ text: String) -> Bool {
        !text.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }
}
