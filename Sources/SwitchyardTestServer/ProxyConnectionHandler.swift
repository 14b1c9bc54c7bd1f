import Foundation
import NIOCore
import NIOPosix

/// One client connection of a ``LoopbackProxy``: reads the request head, checks the credentials,
/// connects to the target on the same event loop, then relays bytes both ways until either side
/// closes. A forwarded (absolute-form) request is rewritten to origin form with `Connection: close`,
/// so one client connection carries one request. Lives on its channel's event loop only.
final class ProxyConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum Phase {
        case readingHead
        case connecting
        case relaying(any Channel)
        case closing
    }

    private let state: ProxyState
    private var phase = Phase.readingHead
    private var head = ByteBuffer()
    /// Bytes that arrived while connecting to the target.
    private var pending: [ByteBuffer] = []

    init(state: ProxyState) {
        self.state = state
    }

    func channelInactive(context: ChannelHandlerContext) {
        if case .relaying(let origin) = phase { Self.closeAfterWrites(origin) }
        phase = .closing
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if case .relaying(let origin) = phase, context.channel.isWritable {
            origin.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
        }
        context.fireChannelWritabilityChanged()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = Self.unwrapInboundIn(data)
        switch phase {
        case .relaying(let origin):
            origin.write(bytes, promise: nil)
            if !origin.isWritable {
                context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
            }
        case .connecting:
            pending.append(bytes)
        case .closing:
            break
        case .readingHead:
            head.writeBuffer(&bytes)
            readHead(context: context)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if case .relaying(let origin) = phase { origin.flush() }
        context.fireChannelReadComplete()
    }

    // MARK: - The request head

    private func readHead(context: ChannelHandlerContext) {
        let view = head.readableBytesView
        guard let end = view.firstRange(of: [13, 10, 13, 10]) else {
            if head.readableBytes > ProxyRequestHead.maxBytes {
                answer(431, "Request Header Fields Too Large", context: context)
            }
            return
        }
        let headLength = end.upperBound - view.startIndex
        let text = String(decoding: view[view.startIndex..<end.lowerBound], as: UTF8.self)
        head.moveReaderIndex(forwardBy: headLength)
        if head.readableBytes > 0 { pending.append(head) }
        head = ByteBuffer()
        guard let request = ProxyRequestHead(text[...]) else {
            answer(400, "Bad Request", context: context)
            return
        }
        guard authorize(request) else {
            state.record { $0.refusedForCredentials += 1 }
            answer(
                407, "Proxy Authentication Required", extra: "Proxy-Authenticate: Basic realm=\"loopback proxy\"\r\n",
                counted: false, context: context)
            return
        }
        if request.method == "CONNECT" {
            guard let (host, port) = request.connectTarget else { return answer(400, "Bad Request", context: context) }
            open(host: host, port: port, context: context) { [state] origin in
                state.record { $0.tunnels["\(request.target)", default: 0] += 1 }
                return (ByteBuffer(string: "HTTP/1.1 200 Connection Established\r\n\r\n"), toClient: true)
            }
        } else if let target = request.absoluteTarget {
            open(host: target.host, port: target.port, context: context) { [state] _ in
                state.record {
                    $0.forwarded[target.authority, default: 0] += 1
                    $0.forwardedURLs.append(String(request.target))
                }
                return (Self.originHead(request, path: target.path), toClient: false)
            }
        } else {
            answer(400, "Bad Request", context: context)
        }
    }

    /// Whether the request carries the credentials the proxy requires (always, when it requires none).
    private func authorize(_ request: ProxyRequestHead) -> Bool {
        var seen: String?
        if let value = request.value(of: "proxy-authorization"), value.lowercased().hasPrefix("basic "),
            let data = Data(base64Encoded: String(value.dropFirst(6)).trimmingCharacters(in: .whitespaces))
        {
            seen = String(decoding: data, as: UTF8.self)
        }
        if let seen { state.record { $0.credentials.append(seen) } }
        guard let required = state.credentials else { return true }
        return seen == "\(required.user):\(required.password)"
    }

    /// The request as the origin gets it: origin-form target, hop-by-hop and proxy fields removed,
    /// `Connection: close` so the origin ends the exchange after its response.
    private static func originHead(_ request: ProxyRequestHead, path: String) -> ByteBuffer {
        let dropped: Set<String> = ["proxy-authorization", "proxy-connection", "connection", "keep-alive"]
        var text = "\(request.method) \(path) \(request.version)\r\n"
        for field in request.fields where !dropped.contains(field.name.lowercased()) {
            text += "\(field.name): \(field.value)\r\n"
        }
        text += "Connection: close\r\n\r\n"
        return ByteBuffer(string: text)
    }

    // MARK: - The target

    /// Connects to `host:port` (loopback only) and starts relaying; `greeting` counts the request and
    /// says what to send first, and to which side.
    private func open(
        host: String, port: Int, context: ChannelHandlerContext,
        greeting: @escaping (any Channel) -> (ByteBuffer, toClient: Bool)
    ) {
        guard ["127.0.0.1", "localhost", "::1"].contains(host.lowercased()) else {
            answer(403, "Forbidden", context: context)
            return
        }
        phase = .connecting
        let client = context.channel
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        ClientBootstrap(group: context.eventLoop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { origin in
                origin.eventLoop.makeCompletedFuture {
                    try origin.pipeline.syncOperations.addHandler(ProxyRelayHandler(peer: client))
                }
            }
            .connect(host: host == "localhost" ? "127.0.0.1" : host, port: port)
            .hop(to: context.eventLoop)
            .assumeIsolated()
            .whenComplete { result in
                let (handler, context) = loopBound.value
                handler.connected(result, context: context, greeting: greeting)
            }
    }

    private func connected(
        _ result: Result<any Channel, any Error>, context: ChannelHandlerContext,
        greeting: (any Channel) -> (ByteBuffer, toClient: Bool)
    ) {
        guard case .connecting = phase else {
            if case .success(let origin) = result { origin.close(promise: nil) }
            return
        }
        switch result {
        case .failure:
            answer(502, "Bad Gateway", context: context)
        case .success(let origin):
            phase = .relaying(origin)
            let (first, toClient) = greeting(origin)
            if toClient {
                context.writeAndFlush(Self.wrapOutboundOut(first), promise: nil)
            } else {
                origin.write(first, promise: nil)
            }
            for bytes in pending { origin.write(bytes, promise: nil) }
            pending = []
            origin.flush()
        }
    }

    // MARK: - Answers of the proxy itself

    private func answer(
        _ status: Int, _ reason: String, extra: String = "", counted: Bool = true,
        context: ChannelHandlerContext
    ) {
        if counted { state.record { $0.failed += 1 } }
        phase = .closing
        let body = "\(status) \(reason) (loopback proxy)\n"
        let text =
            "HTTP/1.1 \(status) \(reason)\r\n\(extra)Content-Type: text/plain\r\nContent-Length: \(body.utf8.count)"
            + "\r\nConnection: close\r\n\r\n\(body)"
        context.writeAndFlush(Self.wrapOutboundOut(ByteBuffer(string: text)), promise: nil)
        Self.closeAfterWrites(context.channel)
    }

    /// Closes `channel` once everything written to it so far is on the wire.
    static func closeAfterWrites(_ channel: any Channel) {
        channel.writeAndFlush(ByteBuffer()).whenComplete { _ in channel.close(promise: nil) }
    }
}

/// The target side of a relayed connection: passes what the target sends to the client and closes
/// the client (after its pending writes) when the target closes.
final class ProxyRelayHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let peer: any Channel

    init(peer: any Channel) {
        self.peer = peer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        peer.write(Self.unwrapInboundIn(data), promise: nil)
        if !peer.isWritable {
            context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        peer.flush()
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            peer.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        ProxyConnectionHandler.closeAfterWrites(peer)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
