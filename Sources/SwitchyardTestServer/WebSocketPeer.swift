import Crypto
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// The server side of `/ws/{mode}`: the 101 answer, the switch of the connection's pipeline to
/// WebSocket frames, and peers that echo, fragment, ping, close, oversend or vanish.
enum WebSocketPeer {
    /// How the peer behaves after the handshake.
    enum Mode: String {
        /// Echoes every message (fragments joined) as one frame; answers pings and closes.
        case echo
        /// Echoes each message as three fragments.
        case fragments
        /// Sends a ping first (its pong is recorded), then echoes.
        case ping
        /// Sends close 4000 `server says bye` first.
        case close
        /// Sends one binary message of `size` bytes first, then echoes.
        case oversized
        /// Closes the TCP connection without a close frame after the first message.
        case abrupt
    }

    /// Key → what the peers of `?key=` saw: `pong:DATA`, `close:CODE:REASON`, `message:N` (bytes).
    final class Ledger: Sendable {
        private let log = NIOLockedValueBox<[String: [String]]>([:])

        func record(_ key: String, _ entry: String) {
            log.withLockedValue { $0[key, default: []].append(entry) }
        }

        func entries(_ key: String) -> [String] {
            log.withLockedValue { $0[key] ?? [] }
        }
    }

    /// The action for a `/ws/{mode}` request: 101 with the accept value, then `mode`; 400 without a
    /// valid WebSocket handshake.
    static func action(_ request: IncomingRequest, mode: Substring) -> RouteAction {
        guard let mode = Mode(rawValue: String(mode)),
            request.head.headers["Upgrade"].first?.lowercased() == "websocket",
            let key = request.head.headers["Sec-WebSocket-Key"].first
        else { return .text(400, "not a websocket handshake\n") }
        let accept = Data(Insecure.SHA1.hash(data: Data((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
        let size = request.target.value("size").flatMap { Int($0) } ?? 2 << 20
        return .webSocket(accept: accept, mode: mode, key: request.target.value("key") ?? "", size: size)
    }

    /// Writes the 101 answer and replaces the HTTP handlers with the WebSocket peer.
    static func upgrade(
        context: ChannelHandlerContext, accept: String, mode: Mode, key: String, size: Int, state: ServerState,
        removing httpHandler: any RemovableChannelHandler
    ) {
        let head =
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\n\r\n"
        context.writeAndFlush(NIOAny(ByteBuffer(string: head)), promise: nil)
        let pipeline = context.pipeline.syncOperations
        do {
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandlers(
                [
                    WebSocketFrameEncoder(),
                    ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 64 << 20)),
                    NIOWebSocketFrameAggregator(
                        minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: Int.max, maxAccumulatedFrameSize: 64 << 20),
                    Handler(mode: mode, key: key, size: size, ledger: state.webSockets)
                ],
                position: .after(decoder))
            pipeline.removeHandler(httpHandler, promise: nil)
            pipeline.removeHandler(decoder, promise: nil)
        } catch {
            context.close(promise: nil)
        }
    }

    /// One peer.
    final class Handler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = WebSocketFrame
        typealias OutboundOut = WebSocketFrame

        private let mode: Mode
        private let key: String
        private let size: Int
        private let ledger: Ledger
        private var closeSent = false

        init(mode: Mode, key: String, size: Int, ledger: Ledger) {
            self.mode = mode
            self.key = key
            self.size = size
            self.ledger = ledger
        }

        func handlerAdded(context: ChannelHandlerContext) {
            // Once in the pipeline the peer may speak first.
            context.eventLoop.assumeIsolated().execute { self.speakFirst(context: context) }
        }

        private func speakFirst(context: ChannelHandlerContext) {
            switch mode {
            case .ping:
                send(.ping, ByteBuffer(string: "are you there"), context: context)
            case .close:
                sendClose(4000, "server says bye", context: context)
            case .oversized:
                send(.binary, ByteBuffer(repeating: 0x61, count: size), context: context)
            default:
                break
            }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = unwrapInboundIn(data)
            switch frame.opcode {
            case .text, .binary:
                let payload = frame.unmaskedData
                ledger.record(key, "message:\(payload.readableBytes)")
                switch mode {
                case .abrupt:
                    context.close(promise: nil)
                case .fragments:
                    let third = max(payload.readableBytes / 3, 1)
                    var rest = payload
                    let first = rest.readSlice(length: min(third, rest.readableBytes)) ?? ByteBuffer()
                    let second = rest.readSlice(length: min(third, rest.readableBytes)) ?? ByteBuffer()
                    write(WebSocketFrame(fin: false, opcode: frame.opcode, data: first), context: context)
                    write(WebSocketFrame(fin: false, opcode: .continuation, data: second), context: context)
                    write(WebSocketFrame(fin: true, opcode: .continuation, data: rest), context: context)
                    context.flush()
                default:
                    send(frame.opcode, payload, context: context)
                }
            case .ping:
                send(.pong, frame.unmaskedData, context: context)
            case .pong:
                ledger.record(key, "pong:\(String(buffer: frame.unmaskedData))")
            case .connectionClose:
                var data = frame.unmaskedData
                let code = data.readInteger(as: UInt16.self).map(Int.init) ?? 1005
                ledger.record(key, "close:\(code):\(data.readString(length: data.readableBytes) ?? "")")
                if closeSent {
                    context.close(promise: nil)
                } else {
                    closeSent = true
                    var echo = ByteBuffer()
                    if code != 1005 { echo.writeInteger(UInt16(code)) }
                    context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: echo)))
                        .whenComplete { _ in context.close(promise: nil) }
                }
            default:
                break
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }

        private func send(_ opcode: WebSocketOpcode, _ data: ByteBuffer, context: ChannelHandlerContext) {
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: opcode, data: data)), promise: nil)
        }

        private func write(_ frame: WebSocketFrame, context: ChannelHandlerContext) {
            context.write(wrapOutboundOut(frame), promise: nil)
        }

        private func sendClose(_ code: Int, _ reason: String, context: ChannelHandlerContext) {
            closeSent = true
            var payload = ByteBuffer()
            payload.writeInteger(UInt16(code))
            payload.writeString(reason)
            send(.connectionClose, payload, context: context)
        }
    }
}
