import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

/// An in-process HTTP/1.1 (and, over TLS, HTTP/2) server on the loopback interface for tests, demos and benchmarks.
///
/// Start one with ``start(_:)``, point a client at ``url(_:)`` and call ``shutdown()`` when done.
/// It supports keep-alive and pipelining, serves deterministic content, and can produce
/// deliberately misbehaving responses (see the route table on `Router` in
/// `LoopbackServer+Routes.swift`: `/small`, `/status/{code}`, `/delay/{ms}`, `/echo`,
/// `/echo/body`, `/bytes/{n}`, `/stall`, `/stall-body`, `/flaky/{key}/{n}`, `/retry-after/{s}`,
/// `/redirect/{n}`, `/redirect-to`, `/pages/{key}`, `/headers/many`, `/headers/giant`, `/gzip`, `/deflate`,
/// `/gzip/broken`, `/malformed/*`). Any request may carry `?tag=X` to observe when its
/// connection closes via ``waitForDisconnect(tag:timeout:)`` / ``hasDisconnected(tag:)``.
/// With ``Configuration/tls`` it serves the same routes over HTTPS (``TLS``, certificates from
/// ``TestCertificates``).
///
/// ```swift
/// let server = try await LoopbackServer.start()
/// defer { Task { try await server.shutdown() } }
/// let url = server.url("/small")   // "http://127.0.0.1:54321/small"
/// ```
public final class LoopbackServer: Sendable {
    /// Where and how the server listens.
    public struct Configuration: Sendable {
        /// Address to bind; defaults to `127.0.0.1`.
        public var host: String = "127.0.0.1"
        /// Port to bind; `0` (the default) picks a free ephemeral port, see ``LoopbackServer/port``.
        public var port: Int = 0
        /// Event-loop threads; defaults to `1`. Zero or negative means one per core (`System.coreCount`).
        public var threads: Int = 1
        /// HTTPS: when set, connections speak TLS with this certificate (``TLS``); `nil` (the default): plain HTTP.
        public var tls: TLS?
        /// The fault-injection mode: when set, every request may draw a fault of the plan (resets,
        /// stalls, truncations, malformed framing, bursts of `503`s; see ``FaultPlan``); `nil` (the
        /// default): the server behaves.
        public var faults: FaultPlan?

        /// Creates a configuration; every parameter has a loopback-friendly default.
        public init(host: String = "127.0.0.1", port: Int = 0, threads: Int = 1, tls: TLS? = nil, faults: FaultPlan? = nil) {
            self.host = host
            self.port = port
            self.threads = threads
            self.tls = tls
            self.faults = faults
        }
    }

    /// Listen backlog; large enough for bursts of 1000+ simultaneous connects.
    private static let backlog: Int32 = 4096

    private let group: MultiThreadedEventLoopGroup
    private let serverChannel: any Channel
    private let state: ServerState
    private let host: String
    private let scheme: String
    private let isShutDown = NIOLockedValueBox(false)

    /// The port the server is listening on (the actual one when ``Configuration/port`` was 0).
    public let port: Int

    private init(
        group: MultiThreadedEventLoopGroup, serverChannel: any Channel, state: ServerState, host: String,
        port: Int, scheme: String
    ) {
        self.scheme = scheme
        self.group = group
        self.serverChannel = serverChannel
        self.state = state
        self.host = host
        self.port = port
    }

    deinit {
        // Forgotten shutdown: release the threads without blocking (safe from any thread).
        if !isShutDown.withLockedValue({ $0 }) {
            serverChannel.close(promise: nil)
            group.shutdownGracefully { _ in }
        }
    }

    /// Binds a new server and starts accepting connections.
    ///
    /// - Parameter configuration: host, port and thread count; the default binds `127.0.0.1` on an ephemeral port with one thread.
    /// - Returns: The running server.
    /// - Throws: If the address cannot be bound, or the TLS certificate or key cannot be loaded.
    public static func start(_ configuration: Configuration = .init()) async throws -> LoopbackServer {
        let tlsContext = try configuration.tls?.makeContext()
        let offersHTTP2 = configuration.tls?.applicationProtocols.contains("h2") ?? false
        let threads = configuration.threads > 0 ? configuration.threads : System.coreCount
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let state = ServerState(faults: configuration.faults)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: backlog)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 16)
            .childChannelInitializer { channel in
                state.connectionAccepted()
                guard let tlsContext else {
                    return channel.eventLoop.makeCompletedFuture {
                        state.recordProtocol("http/1.1")
                        try Self.addHTTP1Handlers(to: channel, state: state)
                    }
                }
                do {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tlsContext))
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
                guard offersHTTP2 else {
                    return channel.eventLoop.makeCompletedFuture {
                        state.recordProtocol("http/1.1")
                        try Self.addHTTP1Handlers(to: channel, state: state)
                    }
                }
                return channel.configureHTTP2SecureUpgrade(
                    h2ChannelConfigurator: { channel in
                        state.recordProtocol("h2")
                        return Self.addHTTP2Handlers(to: channel, state: state)
                    },
                    http1ChannelConfigurator: { channel in
                        channel.eventLoop.makeCompletedFuture {
                            state.recordProtocol("http/1.1")
                            try Self.addHTTP1Handlers(to: channel, state: state)
                        }
                    }
                )
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        let port = channel.localAddress?.port ?? configuration.port
        return LoopbackServer(
            group: group, serverChannel: channel, state: state, host: configuration.host, port: port,
            scheme: configuration.tls == nil ? "http" : "https")
    }

    /// The HTTP/1.1 pipeline of a connection: request decoder, then the route handling.
    private static func addHTTP1Handlers(to channel: any Channel, state: ServerState) throws {
        let decoder = ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes))
        try channel.pipeline.syncOperations.addHandler(decoder)
        try channel.pipeline.syncOperations.addHandler(ConnectionHandler(state: state))
    }

    /// The HTTP/2 pipeline of a connection: each stream gets the HTTP/1.1 route handling behind a
    /// codec, so every route answers the same over HTTP/2 (one request per stream), except the
    /// HTTP/2-only `/h2/…` routes, served in front of the codec by ``HTTP2FaultHandler``.
    private static func addHTTP2Handlers(to channel: any Channel, state: ServerState) -> EventLoopFuture<Void> {
        var settings = nioDefaultSettings.filter { $0.parameter != .maxConcurrentStreams }
        settings.append(HTTP2Setting(parameter: .maxConcurrentStreams, value: maxConcurrentStreams))
        return channel.configureHTTP2Pipeline(
            mode: .server, initialLocalSettings: settings,
            inboundStreamInitializer: { stream in
                stream.eventLoop.makeCompletedFuture {
                    try stream.pipeline.syncOperations.addHandler(HTTP2FaultHandler(state: state))
                    try stream.pipeline.syncOperations.addHandler(HTTP2FramePayloadToHTTP1ServerCodec())
                    try stream.pipeline.syncOperations.addHandler(HTTP1ResponseFramer())
                    try stream.pipeline.syncOperations.addHandler(ConnectionHandler(state: state))
                }
            }
        ).map { _ in }
    }

    /// Streams a client may open at once on one HTTP/2 connection (`SETTINGS_MAX_CONCURRENT_STREAMS`):
    /// above the tests' 100 concurrent requests, so none has to wait for a stream or a new connection.
    private static let maxConcurrentStreams = 1000

    /// `http://HOST:PORT` without a trailing slash, e.g. `http://127.0.0.1:54321` (IPv6 hosts in brackets);
    /// `https://` in the HTTPS mode (``Configuration/tls``).
    public var baseURL: String {
        host.contains(":") ? "\(scheme)://[\(host)]:\(port)" : "\(scheme)://\(host):\(port)"
    }

    /// ``baseURL`` followed by `pathAndQuery`, e.g. `url("/bytes/10?framing=chunked")`.
    public func url(_ pathAndQuery: String) -> String {
        baseURL + pathAndQuery
    }

    /// Stops listening, closes every open connection and releases the event-loop threads.
    ///
    /// Idempotent: later calls return immediately. Closed connections are recorded for
    /// ``hasDisconnected(tag:)`` as usual.
    public func shutdown() async throws {
        let first = isShutDown.withLockedValue { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        try? await serverChannel.close()
        try await group.shutdownGracefully()
    }

    /// Waits until a connection that served a request tagged `tag` (query `?tag=`) closes.
    ///
    /// Polls every 5 ms; the tag need not have been seen yet when called.
    /// - Returns: `true` if it closed within `timeout`, `false` otherwise (or if the task is cancelled).
    public func waitForDisconnect(tag: String, timeout: Duration) async -> Bool {
        await state.disconnects.waitForDisconnect(tag: tag, timeout: timeout)
    }

    /// How many generated body bytes (`/bytes`, `/stall-body`) of the response tagged `tag` the
    /// server has handed to its socket so far.
    ///
    /// The server writes only while the socket accepts data, so this shows how far a client has
    /// let the server run ahead of its reader: a client with back-pressure stops it after its own
    /// buffer and the kernel's socket buffers fill.
    public func bodyBytesSent(tag: String) -> Int {
        state.bodyBytesSent(tag: tag)
    }

    /// Whether the connection that served `tag` has been observed closed (non-blocking).
    public func hasDisconnected(tag: String) -> Bool {
        state.disconnects.hasDisconnected(tag: tag)
    }

    /// How many requests the server has received for this exact path (without query), e.g. `"/small"`.
    ///
    /// Counted when the request head arrives, before it is answered.
    public func requestCount(path: String) -> Int {
        state.requestCount(path: path)
    }

    /// What the HTTP/2-only `/h2/{fault}/{key}/{n}` routes did with the requests for `key` so far:
    /// how many were processed (read completely and acted on), how many were turned away before
    /// processing (refused stream, `GOAWAY` below their stream), and each processed body's length.
    ///
    /// Lets a test prove that a POST the server refused was sent again and processed exactly once,
    /// and that one it may have processed was not sent twice.
    public func http2Faults(key: String) -> HTTP2FaultFigures {
        state.http2Faults.figures(key: key)
    }

    /// When each request for the `/flaky/{key}/{n}` route with this `key` arrived (server clock,
    /// taken when the whole request has been read and is answered), oldest first; its count is
    /// the number of attempts seen.
    ///
    /// Lets a test check retry spacing from the server's side, e.g. that a retry honouring
    /// `Retry-After: 1` arrived at least a second after the first attempt.
    public func flakyArrivals(key: String) -> [ContinuousClock.Instant] {
        state.flakyArrivalTimes(key: key)
    }

    /// Every page number the `/pages/{key}` route with this `key` was asked for, in arrival order,
    /// failed and held requests included (`0` for `/pages/{key}/empty` and `/no-content`).
    ///
    /// Lets a test wait until the server has received a page request (for instance one it holds)
    /// instead of sleeping, and check that a failed page was asked for again.
    public func pageRequests(key: String) -> [Int] {
        state.pagedLists.requests(key: key)
    }

    /// What the `/ws/{mode}?key=` peers of `key` saw, in order: `message:BYTES`, `pong:DATA`,
    /// `close:CODE:REASON`.
    public func webSocketLog(key: String) -> [String] {
        state.webSockets.entries(key)
    }

    /// The `Last-Event-ID` of every `/events/{key}` request for `key`, in arrival order (`nil` for a
    /// request without one): what a reconnecting event stream asked to resume from.
    public func eventStreamRequests(key: String) -> [String?] {
        state.eventStreams.requests(key: key)
    }

    /// The `Range` header of every request that carried `?tag=` with this `tag`, in arrival order
    /// (`nil` for a request without one).
    ///
    /// Lets a test check that a resumed download asked for the right offset, e.g. `[nil, "bytes=1048576-"]`.
    public func rangeHeaders(tag: String) -> [String?] {
        state.rangeHeaders(tag: tag)
    }

    /// The figures of the requests held for `key` (`/gate/{key}`, `/hold/{key}/{n}`): held now, their
    /// `id`s in arrival order, and the most in progress at once.
    public func gate(key: String) -> (held: Int, arrivals: [String], maxConcurrent: Int) {
        let figures = state.holds.figures(key: key)
        return (figures.held, figures.arrivals, figures.maxActive)
    }

    /// The upload resources of the `/resumable/{key}` routes for `key`, oldest first: what each
    /// stored, and how the client got it there.
    public func resumableUploads(key: String) -> [ResumableUploadFigures] {
        state.resumableUploads.resources(key: key).map(ResumableUploadFigures.init)
    }

    /// Closes every connection that served a request with `?tag=` `tag`, now: how a test interrupts
    /// a download at a point it chose (e.g. after `/bytes/{n}?stall_at=K` has sent `K` bytes and
    /// the client has them), without depending on timing.
    public func dropConnections(tag: String) {
        state.dropConnections(tag: tag)
    }

    /// Makes `token` the only bearer token the `/auth/{key}` route accepts for `key` (`nil`: none,
    /// the initial state): a test rotates the server's credential with it.
    /// - Parameters:
    ///   - token: The valid token, or `nil`.
    ///   - key: The route's key.
    public func setAuthToken(_ token: String?, key: String) {
        state.authTokens.setToken(token, key: key)
    }

    /// How many tokens `POST /token/{key}` has issued for `key`.
    /// - Parameter key: The route's key.
    public func issuedTokens(key: String) -> Int {
        state.authTokens.issuedCount(key: key)
    }

    /// How many requests `/auth/{key}` has answered with 200 (`accepted`) and 401 (`refused`).
    /// - Parameter key: The route's key.
    /// - Returns: The two counts.
    public func authRequests(key: String) -> (accepted: Int, refused: Int) {
        state.authTokens.counts(key: key)
    }

    /// How the `/cache/{key}` route answers for `key` from now on.
    public enum CacheMode: Sendable, Hashable {
        /// Normally, with the cache fields the query asks for.
        case ok
        /// Never: the request stalls (for timeout tests).
        case stall
        /// With this status and body `fail\n`, without cache fields (e.g. 503).
        case status(Int)
    }

    /// Sets how `/cache/{key}` answers for `key` from now on (the same as `/cache-mode/{key}/{mode}`).
    /// - Parameters:
    ///   - mode: The mode.
    ///   - key: The route's key.
    public func setCacheMode(_ mode: CacheMode, key: String) {
        let routeMode: CacheRoutes.Mode =
            switch mode {
            case .ok: .ok
            case .stall: .stall
            case .status(let code): .status(code)
            }
        state.cacheKeys.setMode(routeMode, key: key)
    }

    /// Lets requests held for `key` (`/gate/{key}`, `/hold/{key}/{n}`) through: the oldest `count`,
    /// or with `nil` all of them and every later one. How a test keeps responses in flight for as long
    /// as it needs, or paces the server one request at a time, without depending on timing.
    /// - Parameters:
    ///   - key: The route's key.
    ///   - count: How many to let through, or `nil` for all, for good.
    public func release(key: String, count: Int? = nil) {
        state.holds.release(key: key, count: count)
    }

    /// How many requests for `/soak/{id}` with this `id` the server has read (0 when none, or once taken
    /// with ``takeSoakArrivals(id:)``): more than 1 for a request the client sent once means a copy.
    /// - Parameter id: The request id.
    public func soakArrivals(id: String) -> Int {
        state.soak.count(id: id)
    }

    /// ``soakArrivals(id:)``, then forgets the id (and ``requestCount(path:)`` of `/soak/{id}`), so a long
    /// soak keeps only the ids in flight. An
    /// arrival after that starts a new count (see ``untakenSoakArrivals``).
    /// - Parameter id: The request id.
    /// - Returns: The arrivals of the id so far.
    public func takeSoakArrivals(id: String) -> Int {
        state.forgetRequestCount(path: "/soak/" + id)
        return state.soak.take(id: id)
    }

    /// The `/soak` ids with arrivals not yet taken (``takeSoakArrivals(id:)``), with their counts: at the
    /// end of a soak that took every id when its request ended, arrivals after the client was done.
    public var untakenSoakArrivals: [String: Int] {
        state.soak.remaining()
    }

    /// The plan the server runs (``Configuration/faults``), or `nil`.
    public var faultPlan: FaultPlan? {
        state.faults?.plan
    }

    /// Faults injected so far, by kind (empty without ``Configuration/faults``).
    public var injectedFaults: [FaultPlan.Fault: Int] {
        state.faults?.injected ?? [:]
    }

    /// Number of currently open client connections (on an HTTP/2 connection: its open streams, each
    /// served like a connection).
    public var openConnections: Int {
        state.openConnections
    }

    /// Client connections accepted so far (TCP connections, however many requests or HTTP/2 streams each
    /// carried): with ``negotiatedProtocols`` a test asserts "100 requests, 1 connection, h2".
    public var acceptedConnections: Int {
        state.acceptedConnections
    }

    /// The protocol each accepted connection speaks, in the order it was decided: `"h2"` when ALPN chose
    /// HTTP/2 (``TLS/applicationProtocols`` offering `h2`), `"http/1.1"` otherwise (ALPN's choice, no ALPN,
    /// or plain HTTP). A TLS connection whose handshake fails has no entry.
    public var negotiatedProtocols: [String] {
        state.negotiatedProtocols
    }
}
