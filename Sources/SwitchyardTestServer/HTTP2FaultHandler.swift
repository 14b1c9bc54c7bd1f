import NIOCore
import NIOHPACK
import NIOHTTP2

/// Serves the `/h2/{fault}/{key}/{n}` routes at the head of each HTTP/2 stream's pipeline, where the
/// stream's frames are still frames: it can reset the stream (`RST_STREAM`) or send `GOAWAY` on the
/// connection, which the HTTP/1.1 route handling behind the codec cannot express.
///
/// Every other stream passes through untouched after its first `HEADERS` frame (one path check).
/// Logic and counts in ``HTTP2Faults``. Lives on its stream channel's event loop only.
final class HTTP2FaultHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias InboundOut = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    private enum Mode {
        /// Before the request's `HEADERS`.
        case undecided
        /// Not an `/h2/` route: everything goes on to the codec.
        case passThrough
        /// Reading an `/h2/` request to its end; `bodyBytes` so far.
        case reading(HTTP2Faults.Route, bodyBytes: Int)
        /// Answered or faulted: later frames are dropped.
        case done
    }

    private let state: ServerState
    private var mode = Mode.undecided

    init(state: ServerState) {
        self.state = state
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch mode {
        case .passThrough:
            context.fireChannelRead(data)
        case .done:
            break
        case .undecided:
            guard case .headers(let headers) = Self.unwrapInboundIn(data),
                let target = headers.headers.first(name: ":path"), target.hasPrefix("/h2/")
            else {
                mode = .passThrough
                context.fireChannelRead(data)
                return
            }
            let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
            state.countRequest(path: path)
            guard let route = HTTP2Faults.route(path: path) else {
                mode = .done
                answer(status: 404, body: "not found\n", context: context)
                return
            }
            if state.http2Faults.arrived(route) == .fault {
                inject(route.fault, context: context)
                return
            }
            mode = .reading(route, bodyBytes: 0)
            if headers.endStream { finish(context: context) }
        case .reading(let route, let bodyBytes):
            switch Self.unwrapInboundIn(data) {
            case .data(let frame):
                mode = .reading(route, bodyBytes: bodyBytes + frame.data.readableBytes)
                if frame.endStream { finish(context: context) }
            case .headers(let trailers) where trailers.endStream:
                finish(context: context)
            default:
                break
            }
        }
    }

    /// The whole request has been read: count it, then fault or answer.
    private func finish(context: ChannelHandlerContext) {
        guard case .reading(let route, let bodyBytes) = mode else { return }
        mode = .done
        switch state.http2Faults.processed(route, bodyBytes: bodyBytes) {
        case .fault: inject(route.fault, context: context)
        case .answer(let body): answer(status: 200, body: body, context: context)
        case .process: break  // not returned after processing
        }
    }

    private func inject(_ fault: HTTP2Faults.Fault, context: ChannelHandlerContext) {
        mode = .done
        switch fault {
        case .refuse:
            context.writeAndFlush(Self.wrapOutboundOut(.rstStream(.refusedStream)), promise: nil)
        case .resetAfter:
            context.writeAndFlush(Self.wrapOutboundOut(.rstStream(.internalError)), promise: nil)
        case .goaway, .goawayAfter:
            guard let connection = context.channel.parent,
                let streamID = try? context.channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID)
            else {
                context.close(promise: nil)
                return
            }
            // `goaway`: the last stream the server will process is the one before this one (client
            // streams are odd), so the client knows this one was not processed. `goaway-after`: this one.
            let lastStreamID: HTTP2StreamID
            if fault == .goawayAfter {
                lastStreamID = streamID
            } else {
                lastStreamID = Int(streamID) >= 3 ? HTTP2StreamID(Int(streamID) - 2) : .rootStream
            }
            let frame = HTTP2Frame(
                streamID: .rootStream,
                payload: .goAway(lastStreamID: lastStreamID, errorCode: .noError, opaqueData: nil))
            connection.writeAndFlush(frame).whenComplete { _ in
                connection.close(promise: nil)
            }
        }
    }

    private func answer(status: Int, body: String, context: ChannelHandlerContext) {
        let bytes = ByteBuffer(string: body)
        let head = HPACKHeaders([
            (":status", String(status)), ("content-type", "text/plain"), ("content-length", String(bytes.readableBytes))
        ])
        context.write(Self.wrapOutboundOut(.headers(.init(headers: head))), promise: nil)
        context.writeAndFlush(Self.wrapOutboundOut(.data(.init(data: .byteBuffer(bytes), endStream: true))), promise: nil)
    }
}
