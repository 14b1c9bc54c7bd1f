import NIOCore
import NIOHTTP1

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Serves one client connection behind `ByteToMessageHandler(HTTPRequestDecoder)`.
///
/// Responses are written as raw `ByteBuffer`s (there is no response encoder in the pipeline), so
/// routes control every byte. Requests are queued and answered strictly one at a time, in order,
/// which makes pipelining work; HTTP/1.1 keep-alive is the default and `Connection: close` (or an
/// HTTP/1.0 request without `keep-alive`) closes the connection after its response.
/// Lives on its channel's event loop only.
final class ConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer

    /// The response currently being produced.
    private struct Responding {
        var keepAlive: Bool
        let isHead: Bool
        let isHTTP10: Bool
        /// The request's `?tag=`, if any: generated body progress is recorded under it.
        let tag: String?

        /// Value of the `Connection` header to send, if any.
        var connectionHeader: String? { keepAlive ? (isHTTP10 ? "keep-alive" : nil) : "close" }
    }

    /// A generated pattern body being written piece by piece.
    private struct PatternStream {
        var offset = 0
        let total: Int
        let chunked: Bool
        /// Whether the response is complete after the last piece (`false` for `/stall-body`).
        let completesResponse: Bool
        /// Whether the connection closes after the last piece (`?cut_after=`).
        var closesAfter = false
    }

    /// Pieces written per event-loop tick before yielding to other connections.
    private static let piecesPerTick = 16
    private static let continueResponse = ByteBuffer(string: "HTTP/1.1 100 Continue\r\n\r\n")

    private let state: ServerState
    private var connectionID: UInt64 = 0
    private var isCounted = false
    private var hadTags = false

    private var receiving: IncomingRequest?
    private var receivingNeedsContinue = false
    private var queue = CircularBuffer<IncomingRequest>()
    private var responding: Responding?
    private var stream: PatternStream?
    private var scheduled: Scheduled<Void>?

    private var isDraining = false
    private var isPumping = false
    private var isClosing = false
    private var badRequestPending = false
    private var needsFlush = false

    init(state: ServerState) {
        self.state = state
    }

    // MARK: - Lifecycle

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { opened() }
    }

    func channelActive(context: ChannelHandlerContext) {
        opened()
        context.fireChannelActive()
    }

    private func opened() {
        guard !isCounted else { return }
        isCounted = true
        connectionID = state.connectionOpened()
    }

    func channelInactive(context: ChannelHandlerContext) {
        isClosing = true
        scheduled?.cancel()
        scheduled = nil
        stream = nil
        queue.removeAll()
        if isCounted {
            isCounted = false
            state.connectionClosed(connectionID, hadTags: hadTags)
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is HTTPParserError {
            // Answer what was already queued, then a 400, then close.
            badRequestPending = true
            receiving = nil
            processQueue(context: context)
        } else {
            isClosing = true
            context.close(promise: nil)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { pump(context: context) }
        context.fireChannelWritabilityChanged()
    }

    // MARK: - Receiving

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch Self.unwrapInboundIn(data) {
        case .head(let head):
            let target = RequestTarget(uri: head.uri)
            state.countRequest(path: target.path)
            if target.query != nil, let tag = target.value("tag") {
                state.disconnects.record(tag: tag, connection: connectionID)
                state.recordRangeHeader(tag: tag, value: head.headers.first(name: "Range"))
                state.recordChannel(context.channel, tag: tag)
                hadTags = true
            }
            guard !isClosing, !badRequestPending else { return }
            receiving = IncomingRequest(head: head, target: target)
            startUploadIntake(head: head, target: target, context: context)
            if head.version == .http1_1, head.headers["Expect"].contains(where: { $0.lowercased() == "100-continue" }) {
                if responding == nil, queue.isEmpty {
                    write(Self.continueResponse, context: context)
                    flushIfNeeded(context: context)
                } else {
                    receivingNeedsContinue = true  // sent once the earlier responses are done
                }
            }
        case .body(let part):
            if let reaction = receiving?.append(part), reaction != .proceed { react(reaction, context: context) }
        case .end:
            guard let request = receiving else { return }
            receiving = nil
            receivingNeedsContinue = false
            queue.append(request)
            processQueue(context: context)
        }
    }

    /// Where an upload route's body goes, and whether the connection stops reading at once.
    private func startUploadIntake(head: HTTPRequestHead, target: RequestTarget, context: ChannelHandlerContext) {
        let parts = target.components
        if parts.first == "resumable" {
            let (intake, reaction) = ResumableUploadRoute.intake(head: head, target: target, state: state)
            receiving?.resumableIntake = intake
            receiving?.resumableUploads = state.resumableUploads
            if reaction != .proceed { react(reaction, context: context) }
        } else if parts.count == 3, parts[0] == "upload", parts[1] == "sink", head.method != .OPTIONS, target.query != nil,
            target.value("hold") == "1"
        {
            react(.holdReading(key: "sink-\(parts[2])"), context: context)
        }
    }

    /// Stops reading until `key` is let through, or closes the connection.
    private func react(_ reaction: ResumableUploads.BodyReaction, context: ChannelHandlerContext) {
        switch reaction {
        case .proceed:
            break
        case .holdReading(let key):
            let channel = context.channel
            channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
            let holds = state.holds
            holds.wait(key: key, id: "body", on: context.eventLoop).assumeIsolated().whenSuccess {
                holds.answered(key: key)
                channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in channel.read() }
            }
        case .close:
            receiving = nil
            isClosing = true
            context.close(promise: nil)
        }
    }

    // MARK: - Responding

    /// Starts queued requests while no response is in progress; flushes at the end.
    private func processQueue(context: ChannelHandlerContext) {
        guard !isDraining else { return }  // re-entered from a synchronous completion; the loop below continues
        isDraining = true
        while responding == nil, !isClosing, let request = queue.popFirst() {
            start(request, context: context)
        }
        isDraining = false
        if responding == nil, !isClosing {
            if badRequestPending {
                isClosing = true
                var buffer = context.channel.allocator.buffer(capacity: 128)
                ResponseHead(status: 400, headers: [("Content-Type", "text/plain"), ("Content-Length", "12")])
                    .write(into: &buffer, connection: "close")
                buffer.writeStaticString("bad request\n")
                write(buffer, context: context)
                closeAfterWrites(context: context)
            } else if receivingNeedsContinue {
                receivingNeedsContinue = false
                write(Self.continueResponse, context: context)
            }
        }
        flushIfNeeded(context: context)
    }

    private func start(_ request: IncomingRequest, context: ChannelHandlerContext) {
        let version = request.head.version
        responding = Responding(
            keepAlive: request.head.isKeepAlive && !request.isTooLarge,
            isHead: request.isHead,
            isHTTP10: version.major == 1 && version.minor == 0,
            tag: request.target.query == nil ? nil : request.target.value("tag")
        )
        let routed = Router.route(request, state: state)
        if let faults = state.faults {
            perform(faults.action(for: request, routed: routed, soakArrival: state.soakArrival(of: request)), context: context)
        } else {
            perform(routed, context: context)
        }
    }

    private func perform(_ action: RouteAction, context: ChannelHandlerContext) {
        guard let current = responding, !isClosing else { return }
        switch action {
        case .small:
            write(PrebuiltResponses.small(isHead: current.isHead, connection: current.connectionHeader), context: context)
            complete(context: context)

        case .respond(let head, let body):
            let inline = !current.isHead && body.readableBytes <= 16 * 1024
            var buffer = context.channel.allocator.buffer(capacity: 256 + (inline ? body.readableBytes : 0))
            head.write(into: &buffer, connection: current.connectionHeader)
            if inline { buffer.writeImmutableBuffer(body) }
            write(buffer, context: context)
            if !current.isHead, !inline { write(body, context: context) }
            complete(context: context)

        case .delayed(let milliseconds, let next):
            scheduled = context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(milliseconds))) {
                self.scheduled = nil
                self.perform(next, context: context)
                self.flushIfNeeded(context: context)
            }

        case .held(let key, let id, let next):
            let holds = state.holds
            holds.wait(key: key, id: id, on: context.eventLoop).assumeIsolated().whenSuccess {
                holds.answered(key: key)
                self.perform(next, context: context)
                self.flushIfNeeded(context: context)
            }

        case .pattern(let count, let framing, let stallAt):
            if framing == .close { responding?.keepAlive = false }
            var head = ResponseHead(status: 200, headers: [("Content-Type", "application/octet-stream")])
            switch framing {
            case .contentLength: head.add("Content-Length", String(count))
            case .chunked: head.add("Transfer-Encoding", "chunked")
            case .close: break
            }
            writeHead(head, context: context)
            if current.isHead {
                complete(context: context)
            } else {
                let stalls = stallAt.map { $0 < count } ?? false
                stream = PatternStream(
                    total: stalls ? (stallAt ?? count) : count, chunked: framing == .chunked, completesResponse: !stalls)
                pump(context: context)
            }

        case .patternSlice(let plan):
            writeHead(plan.head, context: context)
            if current.isHead {
                complete(context: context)
            } else {
                var end = plan.cutAfter.map { min(plan.end, plan.start + $0) } ?? plan.end
                if let stall = plan.stallAt { end = min(end, stall) }
                stream = PatternStream(
                    offset: plan.start, total: end, chunked: false,
                    completesResponse: end == plan.end,
                    closesAfter: plan.stallAt == nil && end < plan.end)
                pump(context: context)
            }

        case .stall:
            break

        case .stallTracked(let tag):
            state.disconnects.record(tag: tag, connection: connectionID)
            hadTags = true

        case .stallBody(let bytes):
            let head = ResponseHead(
                status: 200,
                headers: [
                    ("Content-Type", "application/octet-stream"), ("Content-Length", "1000000000")
                ])
            writeHead(head, context: context)
            if !current.isHead {
                stream = PatternStream(total: bytes, chunked: false, completesResponse: false)
                pump(context: context)
            }

        case .raw(let bytes):
            isClosing = true
            write(bytes, context: context)
            closeAfterWrites(context: context)

        case .webSocket(let setup):
            isClosing = true
            WebSocketPeer.upgrade(context: context, setup, state: state, removing: self)

        case .rawOpen(let bytes):
            isClosing = true
            write(bytes, context: context)

        case .close:
            isClosing = true
            context.close(promise: nil)

        case .interim(let interim, let next):
            write(interim, context: context)
            perform(next, context: context)

        case .reset(let bytesBeforeReset):
            isClosing = true
            if let bytesBeforeReset, !current.isHead {
                var buffer = context.channel.allocator.buffer(capacity: 256 + bytesBeforeReset)
                ResponseHead(
                    status: 200,
                    headers: [
                        ("Content-Type", "application/octet-stream"), ("Content-Length", "1000000000")
                    ]
                ).write(into: &buffer, connection: nil)
                BodyPattern.append(count: bytesBeforeReset, to: &buffer)
                write(buffer, context: context)
            }
            resetAfterWrites(context: context)

        case .resetAfter(let bytes):
            isClosing = true
            write(bytes, context: context)
            resetAfterWrites(context: context)
        }
    }

    /// Ends the current response: either closes the connection or moves on to the next request.
    private func complete(context: ChannelHandlerContext) {
        guard let current = responding else { return }
        responding = nil
        if current.keepAlive {
            processQueue(context: context)
        } else {
            isClosing = true
            closeAfterWrites(context: context)
        }
    }

    /// Writes the next pieces of ``stream`` while the channel is writable (at most
    /// ``piecesPerTick`` per call, then yields); resumed by `channelWritabilityChanged`.
    private func pump(context: ChannelHandlerContext) {
        guard !isPumping else { return }
        isPumping = true
        var budget = Self.piecesPerTick
        while let current = stream, current.offset < current.total, context.channel.isWritable {
            guard budget > 0 else {
                context.eventLoop.assumeIsolated().execute { self.pump(context: context) }
                break
            }
            budget -= 1
            let length = min(BodyPattern.pieceSize, current.total - current.offset)
            stream!.offset += length
            if current.chunked { write(ChunkedFraming.header(size: length, allocator: context.channel.allocator), context: context) }
            write(BodyPattern.piece(at: current.offset, length: length), context: context)
            if current.chunked { write(ChunkedFraming.chunkEnd, context: context) }
            flushIfNeeded(context: context)
            if let tag = responding?.tag { state.recordBodyProgress(tag: tag, bytes: current.offset + length) }
        }
        isPumping = false
        guard let finished = stream, finished.offset == finished.total else { return }
        stream = nil
        if finished.chunked && finished.completesResponse { write(ChunkedFraming.last, context: context) }
        if finished.completesResponse {
            complete(context: context)
        } else if finished.closesAfter {
            isClosing = true
            closeAfterWrites(context: context)
            return
        }
        flushIfNeeded(context: context)
    }

    // MARK: - Writing

    private func writeHead(_ head: ResponseHead, context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: 256)
        head.write(into: &buffer, connection: responding?.connectionHeader)
        write(buffer, context: context)
    }

    private func write(_ buffer: ByteBuffer, context: ChannelHandlerContext) {
        context.write(Self.wrapOutboundOut(buffer), promise: nil)
        needsFlush = true
    }

    private func flushIfNeeded(context: ChannelHandlerContext) {
        guard needsFlush else { return }
        needsFlush = false
        context.flush()
    }

    /// Flushes everything written so far, then resets the connection: `SO_LINGER` with a zero
    /// timeout makes the kernel send a TCP RST instead of a FIN.
    private func resetAfterWrites(context: ChannelHandlerContext) {
        needsFlush = false
        let channel = context.channel
        context.writeAndFlush(Self.wrapOutboundOut(ByteBuffer())).assumeIsolated().whenComplete { _ in
            guard let provider = channel as? any SocketOptionProvider else {
                channel.close(promise: nil)
                return
            }
            provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
                channel.close(promise: nil)
            }
        }
    }

    /// Flushes everything written so far and closes the connection once it is on the wire.
    private func closeAfterWrites(context: ChannelHandlerContext) {
        needsFlush = false
        context.writeAndFlush(Self.wrapOutboundOut(ByteBuffer())).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}
