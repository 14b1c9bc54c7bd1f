import NIOCore
import NIOWebSocket
import SwitchyardCore
import Synchronization

/// The end of an upgraded connection's pipeline: whole messages go to the ``WebSocket``'s readers,
/// pings are answered, the close handshake is completed, and reading pauses while too many
/// messages wait unread.
final class WebSocketFrameHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let socket: WebSocketState
    private var context: ChannelHandlerContext?
    /// Frames to send once the HTTP decoder has left the pipeline (it also sees outbound traffic).
    private var held: [(frame: WebSocketFrame, thenClose: Bool)] = []
    private var outboundOpen = false

    init(socket: WebSocketState) {
        self.socket = socket
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    /// The HTTP handlers are gone: frames may go out.
    func openOutbound() {
        outboundOpen = true
        guard let context else { return }
        for (frame, thenClose) in held { send(frame, thenClose: thenClose, context: context) }
        held.removeAll()
    }

    private func send(_ frame: WebSocketFrame, thenClose: Bool, context: ChannelHandlerContext) {
        guard outboundOpen else {
            held.append((frame, thenClose))
            return
        }
        let written = context.writeAndFlush(wrapOutboundOut(frame))
        if thenClose { written.assumeIsolated().whenComplete { _ in context.close(promise: nil) } }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            socket.deliver(.text(String(buffer: frame.unmaskedData)), channel: context.channel)
        case .binary:
            socket.deliver(.binary(Array(buffer: frame.unmaskedData)), channel: context.channel)
        case .ping:
            send(WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData), thenClose: false, context: context)
        case .pong:
            socket.pongArrived()
        case .connectionClose:
            var data = frame.unmaskedData
            let code = data.readInteger(as: UInt16.self).map(Int.init) ?? 1005
            let reason = data.readString(length: data.readableBytes) ?? ""
            if socket.closeReceived(code: code, reason: reason) {
                // Echo the code to complete the handshake the server started.
                var echo = context.channel.allocator.buffer(capacity: 2)
                if code != 1005 { echo.writeInteger(UInt16(code)) }
                send(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: echo), thenClose: true, context: context)
            } else {
                context.close(promise: nil)
            }
        default:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        socket.connectionEnded()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let code: Int
        let failure: SwitchyardError
        switch error {
        case NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge, NIOWebSocketError.invalidFrameLength,
            MessageDeflate.Failure.tooLarge:
            code = 1009
            failure = SwitchyardError(
                .responseTooLarge,
                "A WebSocket message passed \(socket.options.maximumMessageBytes) bytes (WebSocketOptions.maximumMessageBytes);"
                    + " the connection was closed with 1009 without reading the rest.")
        case MessageDeflate.Failure.corrupt(let reason):
            code = 1007
            failure = SwitchyardError(.webSocketClosed, "A compressed WebSocket message could not be inflated: \(reason).")
        default:
            code = 1002
            failure = SwitchyardError(.webSocketClosed, "The server broke the WebSocket protocol: \(error).", underlyingError: error)
        }
        socket.fail(failure)
        var payload = context.channel.allocator.buffer(capacity: 2)
        payload.writeInteger(UInt16(code))
        send(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: payload), thenClose: true, context: context)
    }
}
