import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A small HTTP proxy on the loopback interface for tests: forwards absolute-form requests
/// (`GET http://127.0.0.1:PORT/path HTTP/1.1`) to their origin and relays the response, opens
/// `CONNECT host:port` tunnels and relays bytes both ways (so HTTPS works through it), optionally
/// demands `Proxy-Authorization: Basic` credentials (407 with `Proxy-Authenticate` otherwise), and
/// counts what passes (``traffic``).
///
/// It reaches loopback targets only (`127.0.0.1`, `localhost`, `::1`; others get 403, an unreachable
/// one 502), carries one request per client connection (the origin is asked for `Connection: close`,
/// whose response header tells the client), reads heads of at most 64 KiB and keeps at most
/// ``maxConnections`` client connections open.
///
/// ```swift
/// let proxy = try await LoopbackProxy.start(requiringCredentials: ("alice", "s3cret"))
/// defer { Task { try await proxy.shutdown() } }
/// let url = proxy.url(user: "alice", password: "s3cret")   // "http://alice:s3cret@127.0.0.1:54322"
/// ```
public final class LoopbackProxy: Sendable {
    /// The most client connections open at once; more are closed on arrival.
    public static let maxConnections = 512

    private let group: MultiThreadedEventLoopGroup
    private let serverChannel: any Channel
    private let state: ProxyState
    private let isShutDown = NIOLockedValueBox(false)

    /// The port the proxy listens on (on `127.0.0.1`).
    public let port: Int

    private init(group: MultiThreadedEventLoopGroup, serverChannel: any Channel, state: ProxyState, port: Int) {
        self.group = group
        self.serverChannel = serverChannel
        self.state = state
        self.port = port
    }

    deinit {
        if !isShutDown.withLockedValue({ $0 }) {
            serverChannel.close(promise: nil)
            group.shutdownGracefully { _ in }
        }
    }

    /// Starts a proxy on `127.0.0.1` with an ephemeral port and one event-loop thread.
    /// - Parameter credentials: The user and password every request must carry in
    ///   `Proxy-Authorization: Basic`; `nil` (the default): none.
    /// - Returns: The running proxy.
    /// - Throws: If the address cannot be bound.
    public static func start(requiringCredentials credentials: (user: String, password: String)? = nil) async throws
        -> LoopbackProxy
    {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let state = ProxyState(credentials: credentials)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                guard state.admit(limit: maxConnections) else {
                    return channel.close()
                }
                channel.closeFuture.whenComplete { _ in state.closed() }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ProxyConnectionHandler(state: state))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        return LoopbackProxy(group: group, serverChannel: channel, state: state, port: channel.localAddress?.port ?? 0)
    }

    /// `http://127.0.0.1:PORT`: the proxy URL to configure a client with.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// The proxy URL with credentials: `http://user:password@127.0.0.1:PORT` (not percent-encoded).
    public func url(user: String, password: String) -> String {
        "http://\(user):\(password)@127.0.0.1:\(port)"
    }

    /// What has passed through so far.
    public var traffic: ProxyTraffic { state.snapshot }

    /// Requests forwarded in absolute form to `authority` (`host:port`, e.g. `"127.0.0.1:54321"`).
    public func forwardedRequests(to authority: String) -> Int { traffic.forwarded[authority] ?? 0 }

    /// `CONNECT` tunnels opened to `authority` (`host:port`).
    public func tunnels(to authority: String) -> Int { traffic.tunnels[authority] ?? 0 }

    /// Client connections open now.
    public var openConnections: Int { state.openConnections }

    /// Stops listening, closes every connection and releases the thread. Idempotent.
    public func shutdown() async throws {
        let first = isShutDown.withLockedValue { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        try? await serverChannel.close()
        try await group.shutdownGracefully()
    }
}
