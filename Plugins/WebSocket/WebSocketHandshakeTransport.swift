import Crypto
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import SwitchyardCore

/// The terminal of a ``WebSocketClient``'s chain: sends the opening handshake on a new connection
/// and, on `101`, turns the connection into a ``WebSocket`` (left in the exchange context). Any other
/// answer comes back as an ordinary response (its body bounded), so the chain's links see it: a
/// `401` reaches the auth plugin, a redirect the caller.
struct WebSocketHandshakeTransport: Transport {
    let options: WebSocketOptions

    /// The GUID of RFC 6455 §1.3, appended to the key before hashing.
    static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    nonisolated(nonsending) func send(_ request: Request, context: ExchangeContext) async throws -> Response {
        try context.checkLiveness()
        let origin = RequestOrigin(request.head)
        let secure = origin.scheme == "https" || origin.scheme == "wss"
        guard ["http", "https", "ws", "wss"].contains(origin.scheme), !origin.host.isEmpty else {
            throw SwitchyardError.invalidRequest("A WebSocket URL is ws://, wss://, http:// or https:// with a host.")
        }
        let host = origin.host.hasPrefix("[") ? String(origin.host.dropFirst().dropLast()) : origin.host
        let port = origin.port ?? (secure ? 443 : 80)
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let promise = MultiThreadedEventLoopGroup.singleton.any().makePromise(of: HandshakeOutcome.self)
        let options = options
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(30))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if secure {
                            let tls = try NIOSSLContext(configuration: .makeClientConfiguration())
                            try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: host))
                        }
                        try channel.pipeline.syncOperations.addHTTPClientHandlers(
                            leftOverBytesStrategy: .forwardBytes, enableOutboundHeaderValidation: false)
                        try channel.pipeline.syncOperations.addHandler(
                            HandshakeHandler(key: key, options: options, promise: promise))
                    }
                }
                .connect(host: host, port: port).get()
        } catch {
            promise.fail(error)
            throw SwitchyardError.connectionFailed(
                "Cannot connect to \(host):\(port) for the WebSocket handshake: \(error).", underlyingError: error)
        }
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: String(RequestOrigin.hostAndPort(of: request.head.authority)))
        for field in request.head.headerFields { headers.add(name: field.name.rawName, value: field.value) }
        headers.replaceOrAdd(name: "Upgrade", value: "websocket")
        headers.replaceOrAdd(name: "Connection", value: "Upgrade")
        headers.replaceOrAdd(name: "Sec-WebSocket-Key", value: key)
        headers.replaceOrAdd(name: "Sec-WebSocket-Version", value: "13")
        if let compression = options.compression {
            headers.replaceOrAdd(name: "Sec-WebSocket-Extensions", value: DeflateAgreement.offer(compression))
        }
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: request.head.path ?? "/", headers: headers)
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        let outcome: HandshakeOutcome
        do {
            outcome = try await promise.futureResult.get()
        } catch {
            channel.close(promise: nil)
            throw SwitchyardError(.webSocketHandshake, "The WebSocket handshake with \(host) failed: \(error).", underlyingError: error)
        }
        var fields = HTTPFields()
        for (name, value) in outcome.head.headers {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        let status = HTTPResponse.Status(code: Int(outcome.head.status.code), reasonPhrase: outcome.head.status.reasonPhrase)
        let response = HTTPResponse(status: status, headerFields: fields)
        if let state = outcome.upgraded {
            context[WebSocketConnectionKey.self] = WebSocket(channel: channel, state: state, handshake: response)
            return Response(response)
        }
        return Response(response, body: HTTPBody(outcome.body))
    }

    /// What the handshake ended with.
    struct HandshakeOutcome: Sendable {
        var head: HTTPResponseHead
        var body: [UInt8]
        var upgraded: WebSocketState?
    }

    /// Reads the handshake's answer; on a valid `101`, replaces the HTTP handlers with WebSocket ones.
    final class HandshakeHandler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPClientResponsePart

        private let key: String
        private let options: WebSocketOptions
        private let promise: EventLoopPromise<HandshakeOutcome>
        private var head: HTTPResponseHead?
        private var body: [UInt8] = []

        init(key: String, options: WebSocketOptions, promise: EventLoopPromise<HandshakeOutcome>) {
            self.key = key
            self.options = options
            self.promise = promise
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
                // Nothing more goes out as HTTP: frames written later must not meet the request encoder.
                if let encoder = try? context.pipeline.syncOperations.handler(type: HTTPRequestEncoder.self) {
                    context.pipeline.syncOperations.removeHandler(encoder, promise: nil)
                }
            case .body(var buffer):
                // The body of a refused handshake, bounded: it is only for the error.
                if body.count < 64 * 1024, let bytes = buffer.readBytes(length: min(buffer.readableBytes, 64 * 1024 - body.count)) {
                    body += bytes
                }
            case .end:
                guard let head else { return }
                if head.status == .switchingProtocols {
                    // The decoder stops at the end of a 101: what follows is WebSocket frames.
                    do {
                        try upgrade(context: context, head: head)
                    } catch {
                        promise.fail(error)
                        context.close(promise: nil)
                    }
                } else {
                    promise.succeed(HandshakeOutcome(head: head, body: body, upgraded: nil))
                    context.close(promise: nil)
                }
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            promise.fail(SwitchyardError.connectionFailed("The server closed the connection during the WebSocket handshake."))
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            promise.fail(error)
            context.close(promise: nil)
        }

        private func upgrade(context: ChannelHandlerContext, head: HTTPResponseHead) throws {
            let expected = Data(Insecure.SHA1.hash(data: Data((key + WebSocketHandshakeTransport.acceptGUID).utf8)))
                .base64EncodedString()
            guard head.headers["Upgrade"].first?.lowercased() == "websocket",
                head.headers[canonicalForm: "Connection"].contains(where: { $0.lowercased() == "upgrade" }),
                head.headers["Sec-WebSocket-Accept"].first == expected
            else {
                throw SwitchyardError(
                    .webSocketHandshake,
                    "The server answered 101 without a valid Upgrade, Connection or Sec-WebSocket-Accept field.")
            }
            let agreement = try DeflateAgreement.accepted(head.headers["Sec-WebSocket-Extensions"], offered: options.compression)
            let state = WebSocketState(options: options, isCompressed: agreement != nil)
            let frames = WebSocketFrameHandler(socket: state)
            let pipeline = context.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPResponseDecoder>.self)
            // The frame handlers go right after the HTTP decoder, which hands them any bytes that came
            // after the 101 head when it is removed.
            try pipeline.addHandlers(
                [
                    WebSocketFrameEncoder(),
                    ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: options.maximumMessageBytes)),
                    MessageCompressionHandler(
                        agreement: agreement, settings: options.compression, maximumMessageBytes: options.maximumMessageBytes),
                    NIOWebSocketFrameAggregator(
                        minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: Int.max,
                        maxAccumulatedFrameSize: options.maximumMessageBytes),
                    frames
                ],
                position: .after(decoder))
            pipeline.removeHandler(self, promise: nil)
            // The decoder hands the bytes after the 101 to the frame decoder as it leaves; until it has
            // left, it would also see (and refuse) outbound frames, so nothing is written before.
            let removed = context.eventLoop.makePromise(of: Void.self)
            let promise = promise
            removed.futureResult.assumeIsolated().whenComplete { _ in
                frames.openOutbound()
                promise.succeed(HandshakeOutcome(head: head, body: [], upgraded: state))
            }
            pipeline.removeHandler(decoder, promise: removed)
        }
    }
}
