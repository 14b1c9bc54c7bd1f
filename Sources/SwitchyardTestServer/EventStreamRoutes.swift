import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// The `/events/{key}` and `/ndjson` routes: an event stream that resumes from `Last-Event-ID`, and
/// a JSON-lines body.
enum EventStreamRoutes {
    /// Key → the `Last-Event-ID` of each `/events/{key}` request, in arrival order.
    final class Ledger: Sendable {
        private let requests = NIOLockedValueBox<[String: [String?]]>([:])

        func record(key: String, lastEventID: String?) {
            requests.withLockedValue { $0[key, default: []].append(lastEventID) }
        }

        func requests(key: String) -> [String?] {
            requests.withLockedValue { $0[key] ?? [] }
        }
    }

    /// `/events/{key}?total=N&per_connection=M&retry=MS&cut=1&open=1&type=T&content_type=C&pad=P&status=S`: events
    /// `id: i`, `data: event i` (with `pad`, then a space and `P` × `x`, P ≤ 1 MiB) for i from `Last-Event-ID` + 1 (or 1), at most `per_connection` of
    /// them, after a comment line and, with `retry`, a `retry:` line. Then the connection closes —
    /// with `cut=1` in the middle of the next event — or, with `open=1`, stays open. Once all
    /// `total` were sent, `204`. With `status` (200…599, not 204 or 304) the head has that status
    /// instead of `200`, over the same events: an error answered as an event stream.
    static func events(_ request: IncomingRequest, key: Substring, state: ServerState) -> RouteAction {
        let target = request.target
        guard let total = Router.optionalInteger(target, "total", default: 10, limit: 10_000_000),
            let perConnection = Router.optionalInteger(target, "per_connection", default: total, limit: 10_000_000),
            let pad = Router.optionalInteger(target, "pad", default: 0, limit: 1 << 20),
            let status = Router.optionalInteger(target, "status", default: 200, limit: 599),
            status >= 200, status != 204, status != 304
        else { return Router.badRequest }
        let lastEventID = request.head.headers.first(name: "Last-Event-ID")
        state.eventStreams.record(key: String(key), lastEventID: lastEventID)
        let first = (lastEventID.flatMap { Int($0) } ?? 0) + 1
        guard first <= total else {
            return .respond(ResponseHead(status: 204, headers: []), body: ByteBuffer())
        }
        let last = min(total, first + max(perConnection, 1) - 1)
        let contentType = target.value("content_type") ?? "text/event-stream"
        let type = target.value("type").map { "event: \($0)\n" } ?? ""
        // Bytes appended to one local array, the number's digits from a small string: millions of
        // events (a benchmark's stream) take tens of milliseconds.
        var text: [UInt8] = []
        text.reserveCapacity(256 + key.utf8.count + (last - first + 1) * (32 + type.utf8.count + pad))
        let padding: [UInt8] = pad > 0 ? [UInt8(ascii: " ")] + [UInt8](repeating: UInt8(ascii: "x"), count: pad) : []
        let reason = HTTPResponseStatus(statusCode: status).reasonPhrase
        text += "HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(contentType)\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n".utf8
        text += ": stream for \(key)\n".utf8
        if let retry = target.value("retry") { text += "retry: \(retry)\n\n".utf8 }
        let typeLine = Array(type.utf8)
        for index in first...last {
            let number = String(index).utf8
            text += "id: ".utf8
            text += number
            text.append(UInt8(ascii: "\n"))
            text += typeLine
            text += "data: event ".utf8
            text += number
            text += padding
            text += "\n\n".utf8
        }
        if target.value("cut") == "1", last < total { text += "id: \(last + 1)\n\(type)data: event \(last + 1) torn".utf8 }
        let bytes = ByteBuffer(bytes: text)
        return target.value("open") == "1" ? .rawOpen(bytes) : .raw(bytes)
    }

    /// `/ndjson?count=N&bad_line=K`: `N` lines `{"n":i}` (i from 1) of `application/x-ndjson`, line
    /// `K` replaced by `not json`.
    static func jsonLines(_ target: RequestTarget) -> RouteAction {
        guard let count = Router.optionalInteger(target, "count", default: 3, limit: 10_000_000),
            let bad = Router.optionalInteger(target, "bad_line", default: 0, limit: 10_000_000)
        else { return Router.badRequest }
        var text = ""
        for index in stride(from: 1, through: count, by: 1) { text += index == bad ? "not json\n" : "{\"n\":\(index)}\n" }
        return .text(200, text, contentType: "application/x-ndjson")
    }
}
