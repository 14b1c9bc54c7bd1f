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
        /// Sends the two compressed `Hello` messages of RFC 7692 §7.2.3.2 (the second refers back
        /// to the first), then echoes; needs permessage-deflate.
        case rfcHello = "rfc-hello"
        /// Sends `count` binary messages of `size` bytes (byte `i` of message `m` is `(m + i) % 256`)
        /// as fast as the connection takes them, never more than the socket accepts (it waits for
        /// writability), then `flooded:COUNT` in the log; then echoes.
        case flood
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

    /// What a `/ws/{mode}` handshake asked for and agreed on.
    struct Setup {
        var accept: String
        var mode: Mode
        var key: String
        var size: Int
        /// How many messages `flood` sends.
        var count: Int
        /// The `Sec-WebSocket-Extensions` answer, if any.
        var extensions: String?

        /// Whether permessage-deflate was agreed.
        var deflates: Bool { extensions?.lowercased().hasPrefix("permessage-deflate") == true }
    }

    /// The action for a `/ws/{mode}` request: 101 with the accept value, then `mode`; 400 without a
    /// valid WebSocket handshake.
    ///
    /// permessage-deflate (RFC 7692) is accepted when offered, echoing the offer's
    /// `client_no_context_takeover`; `?deflate=off` declines it and `?extensions=V` answers `V` verbatim.
    static func action(_ request: IncomingRequest, mode: Substring) -> RouteAction {
        guard let mode = Mode(rawValue: String(mode)),
            request.head.headers["Upgrade"].first?.lowercased() == "websocket",
            let key = request.head.headers["Sec-WebSocket-Key"].first
        else { return .text(400, "not a websocket handshake\n") }
        let accept = Data(Insecure.SHA1.hash(data: Data((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
        let size = request.target.value("size").flatMap { Int($0) } ?? 2 << 20
        let count = request.target.value("count").flatMap { Int($0) } ?? 100
        let offer = request.head.headers["Sec-WebSocket-Extensions"].joined(separator: ", ").lowercased()
        var extensions: String?
        if let verbatim = request.target.value("extensions") {
            extensions = verbatim
        } else if offer.contains("permessage-deflate"), request.target.value("deflate") != "off" {
            extensions = "permessage-deflate" + (offer.contains("client_no_context_takeover") ? "; client_no_context_takeover" : "")
        }
        return .webSocket(
            Setup(accept: accept, mode: mode, key: request.target.value("key") ?? "", size: size, count: count, extensions: extensions))
    }

    /// Writes the 101 answer and replaces the HTTP handlers with the WebSocket peer.
    static func upgrade(
        context: ChannelHandlerContext, _ setup: Setup, state: ServerState, removing httpHandler: any RemovableChannelHandler
    ) {
        let head =
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(setup.accept)\r\n"
            + (setup.extensions.map { "Sec-WebSocket-Extensions: \($0)\r\n" } ?? "") + "\r\n"
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
                    Handler(setup, ledger: state.webSockets)
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
        private let count: Int
        private var flooded = 0
        private var floodPattern: ByteBuffer?
        private let ledger: Ledger
        /// The client's compressed messages are inflated with this (context kept between messages
        /// unless the client asked otherwise); ours are compressed one by one, each a whole deflate stream.
        private let inflater: PeerInflater?
        private var closeSent = false

        init(_ setup: Setup, ledger: Ledger) {
            mode = setup.mode
            key = setup.key
            size = setup.size
            count = setup.count
            self.ledger = ledger
            inflater = setup.deflates ? PeerInflater() : nil
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
            case .flood:
                pump(context: context)
            case .rfcHello:
                for bytes: [UInt8] in [[0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00], [0xF2, 0x00, 0x11, 0x00, 0x00]] {
                    var frame = WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(bytes: bytes))
                    frame.rsv1 = true
                    context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
                }
            default:
                break
            }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = unwrapInboundIn(data)
            switch frame.opcode {
            case .text, .binary:
                var payload = frame.unmaskedData
                if frame.rsv1 {
                    guard let inflated = inflater?.inflate(payload) else {
                        ledger.record(key, "bad-compression")
                        return sendClose(1002, "bad compression", context: context)
                    }
                    ledger.record(key, "message:\(inflated.readableBytes) deflated from \(payload.readableBytes)")
                    payload = inflated
                } else {
                    ledger.record(key, "message:\(payload.readableBytes)")
                }
                switch mode {
                case .abrupt:
                    context.close(promise: nil)
                case .fragments:
                    let (body, compressed) = outgoing(frame.opcode, payload)
                    let third = max(body.readableBytes / 3, 1)
                    var rest = body
                    let first = rest.readSlice(length: min(third, rest.readableBytes)) ?? ByteBuffer()
                    let second = rest.readSlice(length: min(third, rest.readableBytes)) ?? ByteBuffer()
                    var opening = WebSocketFrame(fin: false, opcode: frame.opcode, data: first)
                    opening.rsv1 = compressed
                    write(opening, context: context)
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
                    let channel = context.channel
                    context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: echo)))
                        .whenComplete { _ in channel.close(promise: nil) }
                }
            default:
                break
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }

        func channelWritabilityChanged(context: ChannelHandlerContext) {
            if mode == .flood, context.channel.isWritable { pump(context: context) }
            context.fireChannelWritabilityChanged()
        }

        /// `flood`: writes messages while the socket takes them.
        private func pump(context: ChannelHandlerContext) {
            if floodPattern == nil {
                floodPattern = ByteBuffer(bytes: (0..<(size + 256)).map { UInt8(truncatingIfNeeded: $0) })
            }
            while flooded < count, context.channel.isWritable, let pattern = floodPattern {
                // Message m is the pattern from offset m % 256: a slice, the bytes are not copied.
                let message = pattern.getSlice(at: flooded % 256, length: size) ?? ByteBuffer()
                flooded += 1
                context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .binary, data: message)), promise: nil)
            }
            context.flush()  // unflushed writes count against writability too
            if flooded == count {
                flooded += 1  // once
                ledger.record(key, "flooded:\(count)")
            }
        }

        private func send(_ opcode: WebSocketOpcode, _ data: ByteBuffer, context: ChannelHandlerContext) {
            let (body, compressed) = outgoing(opcode, data)
            var frame = WebSocketFrame(fin: true, opcode: opcode, data: body)
            frame.rsv1 = compressed
            context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
        }

        /// A message's payload as it goes out: with permessage-deflate agreed, data messages are
        /// compressed, each as a whole deflate stream (a final block, RFC 7692 §7.2.3.3).
        private func outgoing(_ opcode: WebSocketOpcode, _ data: ByteBuffer) -> (ByteBuffer, compressed: Bool) {
            guard inflater != nil, opcode == .text || opcode == .binary else { return (data, false) }
            let bytes = Deflate.compress(totalInput: data.readableBytes, windowBits: -15) { offset, room in
                data.getBytes(at: data.readerIndex + offset, length: min(room, data.readableBytes - offset)) ?? []
            }
            return (ByteBuffer(bytes: bytes), true)
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
