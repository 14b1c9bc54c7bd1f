import NIOCore

/// What a connection should do to answer one request; produced by ``Router`` and
/// executed by ``ConnectionHandler``.
indirect enum RouteAction {
    /// Body framing for generated (`/bytes`) bodies.
    enum Framing {
        /// `Content-Length` header.
        case contentLength
        /// `Transfer-Encoding: chunked`.
        case chunked
        /// No length; the body ends when the server closes the connection.
        case close
    }

    /// The precomputed `/small` response.
    case small
    /// A complete response: `head` (which already carries its framing headers) and `body`
    /// (omitted for `HEAD`).
    case respond(ResponseHead, body: ByteBuffer)
    /// Hold the request (its `id` recorded) until the test lets `key` through (``HeldResponses``),
    /// then run `action`.
    case held(key: String, id: String, then: RouteAction)
    /// Run `action` after `milliseconds`, scheduled on the event loop.
    case delayed(milliseconds: Int, then: RouteAction)
    /// A 200 with `count` pattern bytes, streamed in pieces with back-pressure; with `stallAt`, the
    /// server stops sending at that body offset and leaves the connection open.
    case pattern(count: Int, framing: Framing, stallAt: Int?)
    /// A slice of the pattern body under a prepared head (`/bytes` with ranges), optionally cut
    /// short by closing the connection.
    case patternSlice(RangedBytes.Plan)
    /// Never respond.
    case stall
    /// Never respond, and track the connection under `tag` as if the request carried `?tag=`.
    case stallTracked(tag: String)
    /// A head promising 1,000,000,000 bytes, then `bytes` pattern bytes, then nothing.
    case stallBody(bytes: Int)
    /// Write these bytes verbatim, then close the connection.
    case raw(ByteBuffer)
    /// Answer a WebSocket handshake with 101 and hand the connection to a ``WebSocketPeer``.
    case webSocket(WebSocketPeer.Setup)
    /// Write these bytes verbatim and leave the connection open (a response still streaming); no
    /// further request is read from it.
    case rawOpen(ByteBuffer)
    /// Close the connection without writing anything.
    case close
    /// Write `interim` (complete 1xx responses), then perform `then`.
    case interim(ByteBuffer, then: RouteAction)
    /// Optionally write a head promising 1,000,000,000 bytes plus `bytesBeforeReset` pattern bytes,
    /// then reset the connection (TCP RST through `SO_LINGER` 0).
    case reset(bytesBeforeReset: Int?)
    /// Write these bytes verbatim (a head and part of its body), then reset the connection (a fault
    /// of ``FaultPlan``).
    case resetAfter(ByteBuffer)

    /// A response with a textual body plus `Content-Type` and `Content-Length`.
    static func text(
        _ status: Int, _ body: String, contentType: String = "text/plain",
        headers: [(name: String, value: String)] = []
    ) -> RouteAction {
        bytes(status, ByteBuffer(string: body), contentType: contentType, headers: headers)
    }

    /// A response with a binary body plus `Content-Type` (if non-nil) and `Content-Length`.
    static func bytes(
        _ status: Int, _ body: ByteBuffer, contentType: String?,
        headers: [(name: String, value: String)] = []
    ) -> RouteAction {
        var head = ResponseHead(status: status, headers: headers)
        if let contentType { head.add("Content-Type", contentType) }
        head.add("Content-Length", String(body.readableBytes))
        return .respond(head, body: body)
    }
}
