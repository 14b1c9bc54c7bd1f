import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// The `/cache/{key}` routes: responses with the cache headers a test asks for, a body that
/// changes with every full response (so a test tells a stored body from a fresh one), `304` for
/// matching conditional requests, and a per-key failure mode for stale-if-error tests.
///
/// `/cache/{key}` query parameters (all optional, percent-decoded):
/// - `max_age=N`: `Cache-Control: max-age=N`; `cache_control=V`: `Cache-Control: V` (both may be given).
/// - `no_store=1`: `Cache-Control: no-store`.
/// - `etag=E`: `ETag: "E"`; `If-None-Match` containing `"E"` (or `*`) gets `304`.
/// - `last_modified=D`: `Last-Modified: D`; `If-Modified-Since: D` (the same text) gets `304`.
/// - `expires=D`, `date=D`: those fields verbatim (else the server sends its own `Date`).
/// - `vary=H`: `Vary: H`, and the body names the request's value of `H`.
/// - `status=S` (200–599, default 200): the status of full responses.
/// - `bytes=N`: a full response's body is `N` pattern bytes (as `/bytes/N`), streamed, instead of
///   the text below.
///
/// Every response carries `X-Request-Number: n`, the `n`th request for the key; `304`s carry the
/// cache fields again (refreshed). A full response's body is `{key} #{m}` — `m` counts full
/// responses for the key — plus ` {vary header}={value}` with `vary`, and a newline.
///
/// The key's mode (``LoopbackServer/setCacheMode(_:key:)`` or `/cache-mode/{key}/{ok|stall|503|…}`):
/// `ok` answers as above, `stall` never answers, a status answers that status with `fail\n` and no
/// cache fields.
enum CacheRoutes {
    /// How `/cache/{key}` answers.
    enum Mode: Sendable, Hashable {
        case ok
        case stall
        case status(Int)
    }

    /// Per-key counters and modes.
    final class Keys: Sendable {
        private struct Counters {
            var requests = 0
            var full = 0
            var mode = Mode.ok
        }

        private let keys = NIOLockedValueBox<[String: Counters]>([:])

        func setMode(_ mode: Mode, key: String) {
            keys.withLockedValue { $0[key, default: Counters()].mode = mode }
        }

        /// Counts a request; returns its number and the key's mode.
        func arrive(key: String) -> (request: Int, mode: Mode) {
            keys.withLockedValue { keys in
                keys[key, default: Counters()].requests += 1
                let counters = keys[key] ?? Counters()
                return (counters.requests, counters.mode)
            }
        }

        /// Counts a full response; returns its number.
        func served(key: String) -> Int {
            keys.withLockedValue { keys in
                keys[key, default: Counters()].full += 1
                return keys[key]?.full ?? 0
            }
        }
    }

    /// `/cache-mode/{key}/{mode}`.
    static func setMode(_ parts: [Substring], state: ServerState) -> RouteAction {
        guard parts.count == 3 else { return Router.notFound }
        let mode: Mode
        switch parts[2] {
        case "ok": mode = .ok
        case "stall": mode = .stall
        default:
            guard let code = Int(parts[2]), (200...599).contains(code) else { return Router.badRequest }
            mode = .status(code)
        }
        state.cacheKeys.setMode(mode, key: String(parts[1]))
        return .text(200, "mode set\n")
    }

    /// `/cache/{key}`.
    static func action(_ request: IncomingRequest, key: Substring, state: ServerState) -> RouteAction {
        let target = request.target
        let key = String(key)
        let (number, mode) = state.cacheKeys.arrive(key: key)
        switch mode {
        case .stall: return .stall
        case .status(let code): return .text(code, "fail\n", headers: [("X-Request-Number", String(number))])
        case .ok: break
        }
        guard let status = Int(target.value("status") ?? "200"), (200...599).contains(status) else { return Router.badRequest }
        var fields: [(name: String, value: String)] = [("X-Request-Number", String(number))]
        var cacheControl: [String] = []
        if let maxAge = target.value("max_age") { cacheControl.append("max-age=\(maxAge)") }
        if let value = target.value("cache_control") { cacheControl.append(value) }
        if target.value("no_store") == "1" { cacheControl.append("no-store") }
        if !cacheControl.isEmpty { fields.append(("Cache-Control", cacheControl.joined(separator: ", "))) }
        let eTag = target.value("etag").map { "\"\($0)\"" }
        if let eTag { fields.append(("ETag", eTag)) }
        let lastModified = target.value("last_modified")
        if let lastModified { fields.append(("Last-Modified", lastModified)) }
        if let expires = target.value("expires") { fields.append(("Expires", expires)) }
        if let date = target.value("date") { fields.append(("Date", date)) }
        let vary = target.value("vary")
        if let vary { fields.append(("Vary", vary)) }
        guard fields.allSatisfy({ isHeaderSafe($0.value) }) else { return Router.badRequest }

        let headers = request.head.headers
        let matchesETag =
            eTag.map { tag in
                headers["If-None-Match"].flatMap { $0.split(separator: ",") }
                    .contains {
                        let value = $0.trimmingCharacters(in: " ")
                        return value == tag || value == "*"
                    }
            } ?? false
        let matchesDate = lastModified.map { headers["If-Modified-Since"].contains($0) } ?? false
        if matchesETag || (headers["If-None-Match"].isEmpty && matchesDate) {
            return .respond(ResponseHead(status: 304, headers: fields), body: ByteBuffer())
        }
        let served = state.cacheKeys.served(key: key)
        if let text = target.value("bytes") {
            guard let count = Int(text), (0...(1 << 40)).contains(count) else { return Router.badRequest }
            let head = ResponseHead(
                status: status, headers: fields + [("Content-Type", "application/octet-stream"), ("Content-Length", String(count))])
            return .patternSlice(RangedBytes.Plan(head: head, start: 0, end: count, cutAfter: nil, stallAt: nil))
        }
        var body = "\(key) #\(served)"
        if let vary { body += " \(vary)=\(headers[vary].joined(separator: ", "))" }
        return .text(status, body + "\n", headers: fields)
    }

    private static func isHeaderSafe(_ value: String) -> Bool {
        !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }
}

extension Substring {
    /// Without leading and trailing `character`s.
    fileprivate func trimmingCharacters(in character: Character) -> Substring {
        var text = self
        while text.first == character { text.removeFirst() }
        while text.last == character { text.removeLast() }
        return text
    }
}
