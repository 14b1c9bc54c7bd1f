public import SwitchyardCore

/// The connection an exchange went over, as a transport describes it in its connection events
/// (``ConnectionOpened``, ``ConnectionReused``, ``ConnectionClosed``, ``TLSNegotiated``).
public struct ConnectionInfo: Sendable, Hashable, CustomStringConvertible {
    /// The transport's number for the connection, unique among the connections one transport
    /// opened, so an observer can pair the opening, the reuses and the closing of one connection;
    /// `nil` when the transport met the connection before any request asked for connection events
    /// (it keeps no record of connections nobody watches).
    public var id: UInt64?
    /// The IP address of the peer: the server, or the proxy the connection goes through.
    public var remoteAddress: String?
    /// The port of the peer.
    public var remotePort: Int?

    /// Creates a description of a connection.
    /// - Parameters:
    ///   - id: The transport's number for the connection.
    ///   - remoteAddress: The peer's IP address.
    ///   - remotePort: The peer's port.
    public init(id: UInt64? = nil, remoteAddress: String? = nil, remotePort: Int? = nil) {
        self.id = id
        self.remoteAddress = remoteAddress
        self.remotePort = remotePort
    }

    /// E.g. `#3 127.0.0.1:8443`.
    public var description: String {
        let peer = "\(remoteAddress ?? "?"):\(remotePort.map(String.init) ?? "?")"
        return id.map { "#\($0) \(peer)" } ?? peer
    }
}

/// The exchange opened a new connection (OkHttp's `connectEnd`): published once the connection is
/// established (after TLS, if any), before the response arrives.
///
/// Published only for requests that ask for it (``RequestOptions/publishesConnectionEvents``), as a
/// ``ExchangeEvent/Kind/plugin(_:)`` event; read it with ``ExchangeEvent/plugin(_:)``.
/// Which transports publish which events is in the option's documentation.
public struct ConnectionOpened: PluginEvent, Hashable {
    /// The new connection.
    public var connection: ConnectionInfo
    /// `connectionOpened`.
    public var name: String { "connectionOpened" }
    /// E.g. `#3 127.0.0.1:8443`.
    public var detail: String { connection.description }

    /// Creates the event.
    /// - Parameter connection: The new connection.
    public init(connection: ConnectionInfo) {
        self.connection = connection
    }
}

/// The exchange went over a connection an earlier exchange had opened (OkHttp's
/// `connectionAcquired` without a connect): published before the response arrives.
///
/// Published only for requests that ask for it (``RequestOptions/publishesConnectionEvents``).
public struct ConnectionReused: PluginEvent, Hashable {
    /// The reused connection.
    public var connection: ConnectionInfo
    /// `connectionReused`.
    public var name: String { "connectionReused" }
    /// E.g. `#3 127.0.0.1:8443`.
    public var detail: String { connection.description }

    /// Creates the event.
    /// - Parameter connection: The reused connection.
    public init(connection: ConnectionInfo) {
        self.connection = connection
    }
}

/// A connection was closed (OkHttp's `ConnectionListener.connectionClosed`), by either side.
///
/// It belongs to the last exchange that went over the connection and asked for connection events
/// (``RequestOptions/publishesConnectionEvents``), and is published on that exchange's bus and
/// observers: during the exchange when the connection ends with it (`Connection: close`, a failure),
/// otherwise later, when the idle connection is closed (by the server, the pool or the transport's
/// shutdown), after that exchange's `succeeded`.
public struct ConnectionClosed: PluginEvent, Hashable {
    /// The closed connection.
    public var connection: ConnectionInfo
    /// `connectionClosed`.
    public var name: String { "connectionClosed" }
    /// E.g. `#3 127.0.0.1:8443`.
    public var detail: String { connection.description }

    /// Creates the event.
    /// - Parameter connection: The closed connection.
    public init(connection: ConnectionInfo) {
        self.connection = connection
    }
}

/// The exchange's new connection finished its TLS handshake (OkHttp's `secureConnectEnd`):
/// published after ``ConnectionOpened`` for the same connection.
///
/// Published only for requests that ask for it (``RequestOptions/publishesConnectionEvents``).
public struct TLSNegotiated: PluginEvent, Hashable {
    /// The connection.
    public var connection: ConnectionInfo
    /// The TLS version agreed, as `TLS 1.2` or `TLS 1.3` (an older one as the TLS library names
    /// it); `nil` when the transport cannot read it.
    public var protocolVersion: String?
    /// The application protocol agreed by ALPN: `h2` or `http/1.1`; `nil` when the server chose
    /// none (or the transport cannot tell). AsyncHTTPClient cannot read ALPN itself and reports
    /// the protocol the connection speaks.
    public var applicationProtocol: String?
    /// `tlsNegotiated`.
    public var name: String { "tlsNegotiated" }
    /// E.g. `#3 127.0.0.1:8443 TLS 1.3 h2`.
    public var detail: String {
        [connection.description, protocolVersion ?? "?", applicationProtocol ?? "no ALPN"].joined(separator: " ")
    }

    /// The agreed version as a ``TLSOptions/TLSVersion``, when it is TLS 1.2 or 1.3.
    public var version: TLSOptions.TLSVersion? {
        switch protocolVersion {
        case "TLS 1.2": .v1_2
        case "TLS 1.3": .v1_3
        default: nil
        }
    }

    /// Creates the event.
    /// - Parameters:
    ///   - connection: The connection.
    ///   - protocolVersion: The TLS version, e.g. `TLS 1.3`; a library's own spelling
    ///     (`TLSv1.3`) is normalised to that form.
    ///   - applicationProtocol: The ALPN protocol, e.g. `h2`.
    public init(connection: ConnectionInfo, protocolVersion: String?, applicationProtocol: String?) {
        self.connection = connection
        self.protocolVersion = protocolVersion.map(Self.normalised)
        self.applicationProtocol = applicationProtocol
    }

    /// `TLSv1.3` (OpenSSL's spelling) → `TLS 1.3`; anything else unchanged.
    private static func normalised(_ version: String) -> String {
        version.hasPrefix("TLSv") ? "TLS " + version.dropFirst(4) : version
    }
}

/// The per-request option ``RequestOptions/publishesConnectionEvents``.
public enum ConnectionEventsOptionKey: RequestOptionKey {
    /// `false`: no connection events, and no transport watches the connection for them.
    public static let defaultValue = false
}

extension RequestOptions {
    /// Whether the transport publishes this request's connection events: ``ConnectionOpened`` or
    /// ``ConnectionReused``, ``TLSNegotiated`` for a new TLS connection, and ``ConnectionClosed``
    /// when the connection ends. `false` by default, which costs nothing: no transport looks at
    /// its connections for a request that does not ask.
    ///
    /// ```swift
    /// let bus = EventBus()
    /// bus.addObserver { event in
    ///     if let reused = event.plugin(ConnectionReused.self) { print("reused", reused.connection) }
    /// }
    /// let client = Client(transport: CurlTransport(), interceptors: [], events: bus)
    /// var request = try Request(url: "https://api.example.com/users")
    /// request.options.publishesConnectionEvents = true
    /// _ = try await client.send(request)   // connectionOpened, tlsNegotiated
    /// _ = try await client.send(request)   // connectionReused
    /// ```
    ///
    /// A plugin that watches connection reuse sets it on the requests it watches, in its
    /// interceptor. The events are published like any ``PluginEvent`` (on the client's bus and to
    /// plugin observers), on the transport's thread.
    ///
    /// Per transport:
    /// - curl: all four (the TLS version and ALPN read from libcurl's OpenSSL session; `closed`
    ///   through `CURLOPT_CLOSESOCKETFUNCTION`), before the response head is delivered.
    /// - AsyncHTTPClient (a transport that owns its `HTTPClient`): all four, from a handler the
    ///   transport puts on each connection through AsyncHTTPClient's connection initializers; the
    ///   TLS version from SwiftNIO SSL, the protocol from the kind of connection. Also fills the
    ///   connection fields of ``TransferTimings`` (``TransferTimings/connect`` or
    ///   ``TransferTimings/tls``, ``TransferTimings/requestStart``,
    ///   ``TransferTimings/newConnections``, the remote address). A wrapped `HTTPClient`: none.
    /// - URLSession: on Apple platforms `opened` or `reused` and `tlsNegotiated`, from
    ///   `URLSessionTaskMetrics` when the task ends (after the response, not before it); never
    ///   `closed`. On Linux none: FoundationNetworking reports no metrics.
    public var publishesConnectionEvents: Bool {
        get { self[ConnectionEventsOptionKey.self] }
        set { self[ConnectionEventsOptionKey.self] = newValue }
    }
}
