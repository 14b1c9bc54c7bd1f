import AsyncHTTPClient
import NIOCore
import NIOHPACK
import NIOHTTP1
import NIOHTTP2
import NIOSSL
import SwitchyardCore
import SwitchyardTransportKit
import Synchronization

/// Watches the connections of an owned `HTTPClient` for requests that ask for connection events
/// (`RequestOptions.publishesConnectionEvents`): publishes ``ConnectionOpened`` or
/// ``ConnectionReused``, ``TLSNegotiated`` and ``ConnectionClosed``, and records the connection
/// fields of ``TransferTimings`` that AsyncHTTPClient's async API does not report.
///
/// AsyncHTTPClient's public API tells which connections it makes (its connection initializers run
/// once a connection is established, after TLS and ALPN) but not which request a connection serves.
/// So a watched request carries a probe field naming it, which a handler on the connection takes out
/// of the head before it is encoded: the server never sees it. On HTTP/1.1 the handler sits between
/// AsyncHTTPClient's request handler and NIO's encoder; on HTTP/2, between the connection's frame
/// codec and its stream multiplexer, where every stream's `HEADERS` frame passes. The handler
/// thereby learns which request goes over which connection, and whether it is the connection's first.
///
/// Cost when no request asks: one passing handler per connection, which lets each write through
/// after one atomic load; nothing per request.
final class AsyncHTTPClientConnectionObserver: Sendable {
    /// The field a watched request carries to the connection handler, which removes it.
    static let probeField = "x-switchyard-connection-probe"

    /// A watched request on its way to a connection.
    private struct Watched: Sendable {
        let context: ExchangeContext
        let request: Request
    }

    /// A connection made while some request was watched.
    private struct Connection: Sendable {
        let id: UInt64
        let establishedAt: ContinuousClock.Instant
        let remoteAddress: String?
        let remotePort: Int?
        let isTLS: Bool
        let tlsVersion: String?
        let applicationProtocol: String?
        /// Watched requests written on it so far.
        var requests = 0
        /// The last watched exchange that went over it: its closing is published there.
        var last: Watched?

        var info: ConnectionInfo { ConnectionInfo(id: id, remoteAddress: remoteAddress, remotePort: remotePort) }
    }

    private struct State: Sendable {
        var connections: [ObjectIdentifier: Connection] = [:]
        var waiting: [UInt64: Watched] = [:]
        var nextConnection: UInt64 = 1
        var nextProbe: UInt64 = 1
    }

    private let state = Lock(State())
    /// How many watched requests have not reached a connection yet: when none, handlers only pass
    /// writes through and no connection is recorded.
    private let waitingCount = Atomic<Int>(0)
    /// Whether any request was ever watched: from then on, handlers look for the probe field in
    /// every request head, so that one never reaches a server whatever the timing.
    private let everWatched = Atomic<Bool>(false)

    /// Whether some watched request has not reached its connection yet.
    var isWatching: Bool { waitingCount.load(ordering: .relaxed) > 0 }

    /// Whether any request was ever watched.
    var hasWatched: Bool { everWatched.load(ordering: .relaxed) }

    /// Adds the observer to AsyncHTTPClient's connection initializers (once per connection; none per
    /// stream), after any initializer the configuration already has (the pin check runs first, so a
    /// refused connection is not recorded).
    func install(on configuration: inout HTTPClient.Configuration) {
        let http1 = configuration.http1_1ConnectionDebugInitializer
        let http2 = configuration.http2ConnectionDebugInitializer
        configuration.http1_1ConnectionDebugInitializer = { channel in
            Self.after(http1, on: channel) { self.connectionEstablished(channel, http2: false) }
        }
        configuration.http2ConnectionDebugInitializer = { channel in
            Self.after(http2, on: channel) { self.connectionEstablished(channel, http2: true) }
        }
    }

    /// Runs `step` on the channel's event loop once `earlier` (if any) succeeded.
    private static func after(
        _ earlier: (@Sendable (any Channel) -> EventLoopFuture<Void>)?, on channel: any Channel,
        _ step: @escaping @Sendable () -> Void
    ) -> EventLoopFuture<Void> {
        if let earlier { return earlier(channel).hop(to: channel.eventLoop).map { step() } }
        guard channel.eventLoop.inEventLoop else { return channel.eventLoop.submit(step) }
        step()
        return channel.eventLoop.makeSucceededVoidFuture()
    }

    // MARK: - Request side

    /// Registers a watched request; returns the probe value to send in ``probeField``.
    func watch(_ request: Request, context: ExchangeContext) -> String {
        var request = request
        request.body = nil  // kept until the connection closes: no body with it
        let probe = state.withLock { state in
            defer { state.nextProbe += 1 }
            state.waiting[state.nextProbe] = Watched(context: context, request: request)
            return state.nextProbe
        }
        everWatched.store(true, ordering: .relaxed)
        waitingCount.add(1, ordering: .relaxed)
        return String(probe)
    }

    /// Forgets a watched request that did not reach a connection (it failed before its head was written).
    func withdraw(_ probe: String) {
        guard let key = UInt64(probe) else { return }
        let removed = state.withLock { $0.waiting.removeValue(forKey: key) != nil }
        if removed { waitingCount.subtract(1, ordering: .relaxed) }
    }

    // MARK: - Connection side (event loop)

    /// A connection was established (after TLS and ALPN): given the probe handler, and recorded when
    /// some request is watched. Never fails the connection.
    private func connectionEstablished(_ channel: any Channel, http2: Bool) {
        let pipeline = channel.pipeline.syncOperations
        if http2, let codec = try? pipeline.handler(type: NIOHTTP2Handler.self) {
            try? pipeline.addHandler(HTTP2ProbeHandler(observer: self, connection: channel), position: .after(codec))
        } else if !http2, let encoder = try? pipeline.handler(type: HTTPRequestEncoder.self) {
            try? pipeline.addHandler(HTTP1ProbeHandler(observer: self, connection: channel), position: .after(encoder))
        }
        guard isWatching else { return }
        let isTLS = (try? pipeline.handler(type: NIOSSLClientHandler.self)) != nil
        let tlsVersion = isTLS ? (try? pipeline.nioSSL_tlsVersion()).flatMap { $0.map(Self.name(of:)) } : nil
        let key = ObjectIdentifier(channel)
        let now = ContinuousClock.now
        state.withLock { state in
            state.connections[key] = Connection(
                id: state.nextConnection, establishedAt: now, remoteAddress: channel.remoteAddress?.ipAddress,
                remotePort: channel.remoteAddress?.port, isTLS: isTLS, tlsVersion: tlsVersion,
                applicationProtocol: http2 ? "h2" : isTLS ? "http/1.1" : nil)
            state.nextConnection += 1
        }
        channel.closeFuture.whenComplete { [self] _ in connectionClosed(key) }
    }

    /// A request head carrying `probe` goes out on `channel`: records the connection phases and
    /// publishes the request's connection events.
    fileprivate func requestWritten(probe: String, on channel: any Channel) {
        let now = ContinuousClock.now
        guard let key = UInt64(probe) else { return }
        let connectionKey = ObjectIdentifier(channel)
        let found: (watched: Watched, connection: Connection?, first: Bool)? = state.withLock { state in
            guard let watched = state.waiting.removeValue(forKey: key) else { return nil }
            guard var connection = state.connections[connectionKey] else { return (watched, nil, false) }
            connection.requests += 1
            connection.last = watched
            state.connections[connectionKey] = connection
            return (watched, connection, connection.requests == 1)
        }
        guard let (watched, connection, first) = found else { return }
        waitingCount.subtract(1, ordering: .relaxed)
        let context = watched.context
        let start = context.attemptStartedAt
        let info =
            connection?.info
            ?? ConnectionInfo(remoteAddress: channel.remoteAddress?.ipAddress, remotePort: channel.remoteAddress?.port)
        context.recordTimings { timings in
            timings.requestStart = start.duration(to: now)
            timings.newConnections = first ? 1 : 0
            timings.remoteAddress = info.remoteAddress
            timings.remotePort = info.remotePort
            timings.connect = nil
            timings.tls = nil
            if first, let connection, connection.establishedAt >= start {
                let established = start.duration(to: connection.establishedAt)
                if connection.isTLS { timings.tls = established } else { timings.connect = established }
            }
        }
        guard first, let connection else {
            context.publish(.plugin(ConnectionReused(connection: info)), request: watched.request)
            return
        }
        context.publish(.plugin(ConnectionOpened(connection: info)), request: watched.request)
        if connection.isTLS {
            context.publish(
                .plugin(
                    TLSNegotiated(
                        connection: info, protocolVersion: connection.tlsVersion,
                        applicationProtocol: connection.applicationProtocol)),
                request: watched.request)
        }
    }

    /// A recorded connection closed: publishes ``ConnectionClosed`` on the last watched exchange over it.
    private func connectionClosed(_ key: ObjectIdentifier) {
        guard let connection = state.withLock({ $0.connections.removeValue(forKey: key) }), let last = connection.last
        else { return }
        last.context.publish(.plugin(ConnectionClosed(connection: connection.info)), request: last.request)
    }

    /// `TLS 1.3` for SwiftNIO SSL's `.tlsv13`, and so on.
    private static func name(of version: TLSVersion) -> String {
        switch version {
        case .tlsv1: "TLS 1.0"
        case .tlsv11: "TLS 1.1"
        case .tlsv12: "TLS 1.2"
        case .tlsv13: "TLS 1.3"
        }
    }
}

/// Takes the probe field out of a watched request's head on an HTTP/1.1 connection and tells the
/// observer which connection the request went to; every other write passes through untouched.
private final class HTTP1ProbeHandler: ChannelOutboundHandler {
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    private let observer: AsyncHTTPClientConnectionObserver
    private let connection: any Channel

    init(observer: AsyncHTTPClientConnectionObserver, connection: any Channel) {
        self.observer = observer
        self.connection = connection
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard observer.hasWatched, case .head(var head) = unwrapOutboundIn(data),
            let probe = head.headers.first(name: AsyncHTTPClientConnectionObserver.probeField)
        else {
            context.write(data, promise: promise)
            return
        }
        head.headers.remove(name: AsyncHTTPClientConnectionObserver.probeField)
        observer.requestWritten(probe: probe, on: connection)
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}

/// The same on an HTTP/2 connection: takes the probe field out of the `HEADERS` frame that opens a
/// watched request's stream, on its way from the stream multiplexer to the frame codec.
private final class HTTP2ProbeHandler: ChannelOutboundHandler {
    typealias OutboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    private let observer: AsyncHTTPClientConnectionObserver
    private let connection: any Channel

    init(observer: AsyncHTTPClientConnectionObserver, connection: any Channel) {
        self.observer = observer
        self.connection = connection
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard observer.hasWatched else {
            context.write(data, promise: promise)
            return
        }
        var frame = unwrapOutboundIn(data)
        guard case .headers(var headers) = frame.payload,
            let probe = headers.headers.first(name: AsyncHTTPClientConnectionObserver.probeField)
        else {
            context.write(data, promise: promise)
            return
        }
        headers.headers.remove(name: AsyncHTTPClientConnectionObserver.probeField)
        frame.payload = .headers(headers)
        observer.requestWritten(probe: probe, on: connection)
        context.write(wrapOutboundOut(frame), promise: promise)
    }
}
