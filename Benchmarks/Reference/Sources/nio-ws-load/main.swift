// SwiftNIO's NIOWebSocket used directly: the raw WebSocket reference of Benchmarks/streams.sh. The
// upgrade through NIO's typed client upgrader, then MESSAGES masked text frames of SIZE bytes to an
// echo peer, at most WINDOW unanswered at a time, each echo read before it counts. Two shapes:
//   async  the frames through NIOAsyncChannel from a task (what a Swift-concurrency user of NIO writes);
//   loop   a channel handler that answers each echo with the next frame on the event loop (no task,
//          no hop between threads: the floor of a client on NIO).
// WARMUP round trips go first on the same connection and are not measured.
//
//   nio-ws-load URL MESSAGES [SIZE=16] [WINDOW=1] [WARMUP=1000] [MODE=async|loop]
import Foundation
import LoadShape
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

let arguments = CommandLine.arguments
guard arguments.count >= 3, let url = URL(string: arguments[1]), let host = url.host, let messages = Int(arguments[2]),
    messages > 0
else {
    fail("usage: \(arguments[0]) URL MESSAGES [SIZE=16] [WINDOW=1] [WARMUP=1000] [MODE=async|loop]", status: 64)
}
let size = arguments.count > 3 ? Int(arguments[3]) ?? 16 : 16
let window = max(arguments.count > 4 ? Int(arguments[4]) ?? 1 : 1, 1)
let warmup = arguments.count > 5 ? Int(arguments[5]) ?? 1_000 : 1_000
let mode = arguments.count > 6 ? arguments[6] : "async"
guard mode == "async" || mode == "loop" else { fail("MODE is async or loop, not \(mode)", status: 64) }
let port = url.port ?? 80
let path = url.path.isEmpty ? "/" : url.path
let payload = ByteBuffer(string: String(repeating: "x", count: size))
let details = [("total", "\(messages + warmup)"), ("window", "\(window)"), ("size", "\(size)")]

/// What the upgrade gave.
enum Upgrade: Sendable {
    case socket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
    case looping(any Channel)
    case refused
}

/// A masked text frame of the payload, as a client sends it.
func frame() -> WebSocketFrame {
    WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: payload)
}

/// The `loop` shape: writes the first frames of a run, then one more for each echo until `total`
/// came back; flushes once per read burst.
final class EchoLoop: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private var context: ChannelHandlerContext?
    private var total = 0
    private var sent = 0
    private var received = 0
    private var done: EventLoopPromise<Void>?

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    /// Starts a run of `total` round trips; the future completes when the last echo arrived.
    func run(total: Int) -> EventLoopFuture<Void> {
        guard let context else { preconditionFailure("not in a pipeline") }
        let promise = context.eventLoop.makePromise(of: Void.self)
        (self.total, sent, received, done) = (total, 0, 0, promise)
        while sent < min(window, total) {
            context.write(wrapOutboundOut(frame()), promise: nil)
            sent += 1
        }
        context.flush()
        return promise.futureResult
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard unwrapInboundIn(data).opcode == .text else { return }
        received += 1
        if sent < total {
            context.write(wrapOutboundOut(frame()), promise: nil)
            sent += 1
        }
        if received == total {
            done?.succeed()
            done = nil
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) { context.flush() }

    func channelInactive(context: ChannelHandlerContext) {
        done?.fail(ChannelError.ioOnClosedChannel)
        done = nil
    }
}

let upgrade: EventLoopFuture<Upgrade> = try await ClientBootstrap(group: .singletonMultiThreadedEventLoopGroup)
    .connect(host: host, port: port) { channel in
        channel.eventLoop.makeCompletedFuture {
            let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    if mode == "loop" {
                        try channel.pipeline.syncOperations.addHandler(EchoLoop())
                        return .looping(channel)
                    }
                    return .socket(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
                }
            })
            var headers = HTTPHeaders()
            headers.add(name: "Host", value: "\(host):\(port)")
            headers.add(name: "Content-Length", value: "0")
            let configuration = NIOTypedHTTPClientUpgradeConfiguration(
                upgradeRequestHead: HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers),
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in channel.eventLoop.makeCompletedFuture { Upgrade.refused } })
            return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                configuration: .init(upgradeConfiguration: configuration))
        }
    }

let close = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: ByteBuffer(bytes: [0x03, 0xE8]))
switch try await upgrade.get() {
case .refused:
    fail("the server did not switch protocols")
case .looping(let channel):
    func run(_ total: Int) async throws {
        try await channel.eventLoop.flatSubmit {
            do {
                return try channel.pipeline.syncOperations.handler(type: EchoLoop.self).run(total: total)
            } catch {
                return channel.eventLoop.makeFailedFuture(error)
            }
        }.get()
    }
    if warmup > 0 { try await run(warmup) }
    let meter = StreamMeter()
    try await run(messages)
    print(meter.line(client: "nio-ws-loop", count: messages, extra: details))
    try? await channel.writeAndFlush(close).get()
    try? await channel.close().get()
case .socket(let socket):
    try await socket.executeThenClose { inbound, outbound in
        var echoes = inbound.makeAsyncIterator()
        for (measured, total) in [(false, warmup), (true, messages)] where total > 0 {
            let meter = StreamMeter()
            var (sent, received) = (0, 0)
            while received < total {
                while sent < total, sent - received < window {
                    try await outbound.write(frame())
                    sent += 1
                }
                guard let echo = try await echoes.next() else { fail("the server closed after \(received) echoes") }
                if echo.opcode == .text { received += 1 }
            }
            if measured {
                print(meter.line(client: "nio-ws-async", count: total, extra: details))
            }
        }
        try await outbound.write(close)
    }
}
