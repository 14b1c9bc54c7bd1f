import NIOCore
import NIOHTTP1

/// `Range`/`If-Range` handling of `/bytes/{n}` (content-length framing only), for resumable downloads.
///
/// - Every response carries `ETag: "bytes-{n}"` (or `"bytes-{n}-v{V}"` with `?version=V`, a way to
///   make the resource "change" between two requests) and `Accept-Ranges: bytes`.
/// - `Range: bytes=S-` or `bytes=S-E` gives `206` with `Content-Range: bytes S-E/n`; an
///   `If-Range` that is not the current `ETag` gives the full `200` instead (RFC 9110 §13.1.5).
///   A start past the end gives `416` with `Content-Range: bytes */n`. Other range forms
///   (suffix, several ranges) are ignored: full `200`.
/// - `?ranges=ignore` ignores `Range` (full `200`, no `Accept-Ranges`), like a server without range support.
/// - `?cut_after=K` closes the connection after `K` body bytes of this response.
/// - `?stall_at=K` stops sending (the connection stays open) when the body reaches offset `K`,
///   unless the response starts at or after `K`: a download to pause at a known point, whose
///   resumed request then runs to the end.
enum RangedBytes {
    /// The pattern body slice to send and the head announcing it.
    struct Plan {
        var head: ResponseHead
        /// First body offset to send.
        var start: Int
        /// One past the last body offset to send (before any cut).
        var end: Int
        /// Close the connection after this many body bytes.
        var cutAfter: Int?
        /// Stop sending (and never complete) at this body offset.
        var stallAt: Int?
    }

    /// The action for `/bytes/{count}` with content-length framing.
    static func action(count: Int, request: IncomingRequest) -> RouteAction {
        let target = request.target
        var cutAfter: Int?
        if let text = target.value("cut_after") {
            guard let value = Int(text), value >= 0 else { return Router.badRequest }
            cutAfter = value
        }
        var stallAt: Int?
        if let text = target.value("stall_at") {
            guard let value = Int(text), value >= 0 else { return Router.badRequest }
            stallAt = value
        }
        let ignoresRanges = target.value("ranges") == "ignore"
        let etag = target.value("version").map { "\"bytes-\(count)-v\($0)\"" } ?? "\"bytes-\(count)\""
        var head = ResponseHead(status: 200, headers: [("Content-Type", "application/octet-stream"), ("ETag", etag)])
        if !ignoresRanges { head.add("Accept-Ranges", "bytes") }

        var start = 0
        var end = count
        if !ignoresRanges, let range = request.head.headers.first(name: "Range"),
            ifRangeMatches(request.head.headers, etag: etag), let (first, last) = parse(range)
        {
            guard first < count else {
                var refusal = ResponseHead(status: 416, headers: [("Content-Range", "bytes */\(count)"), ("ETag", etag)])
                refusal.add("Content-Length", "0")
                return .respond(refusal, body: .init())
            }
            start = first
            end = min(count, (last ?? count - 1) + 1)
            head.status = 206
            head.add("Content-Range", "bytes \(start)-\(end - 1)/\(count)")
        }
        head.add("Content-Length", String(end - start))
        if let stall = stallAt, stall <= start || stall >= end { stallAt = nil }
        return .patternSlice(Plan(head: head, start: start, end: end, cutAfter: cutAfter, stallAt: stallAt))
    }

    /// Whether `If-Range` is absent or equals the current entity tag (strong comparison).
    private static func ifRangeMatches(_ headers: HTTPHeaders, etag: String) -> Bool {
        guard let condition = headers.first(name: "If-Range") else { return true }
        return condition.strippingBlanks() == etag
    }

    /// `bytes=S-` or `bytes=S-E` (E ≥ S); anything else is `nil`.
    static func parse(_ value: String) -> (Int, Int?)? {
        let trimmed = value.strippingBlanks()
        guard trimmed.hasPrefix("bytes="), !trimmed.contains(",") else { return nil }
        let spec = trimmed.dropFirst("bytes=".count)
        let sides = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard sides.count == 2, let first = Int(sides[0].strippingBlanks()), first >= 0 else { return nil }
        let lastText = sides[1].strippingBlanks()
        if lastText.isEmpty { return (first, nil) }
        guard let last = Int(lastText), last >= first else { return nil }
        return (first, last)
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (no Foundation in the server).
    func strippingBlanks() -> String {
        var slice = self[...]
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
