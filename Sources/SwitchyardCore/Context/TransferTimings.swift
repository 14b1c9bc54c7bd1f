/// Where the time of one exchange went, in one schema for every transport.
///
/// Every phase is measured from the moment the transport started the attempt, so the values are
/// cumulative, as in curl's `CURLINFO_*_TIME_T`: `dns ≤ connect ≤ tls ≤ requestStart ≤ firstByte ≤ total`.
/// A phase the transport could not observe is `nil`: a reused connection has no connect or TLS
/// phase of its own, and a platform may not report a phase at all. Each field says which
/// transports fill it; the *Transports compared* article has the same as a table.
///
/// On a reused connection ``newConnections`` is `0` and ``connect`` and ``tls`` are `nil`; curl
/// still reports ``dns`` (the time it took to find the connection in its cache, microseconds).
public struct TransferTimings: Sendable, Hashable {
    /// Name resolution finished (curl's `time_namelookup`).
    ///
    /// curl: always (on a reused connection, the lookup in its DNS cache). URLSession: on Apple
    /// platforms, from `URLSessionTaskMetrics`, for a new connection; `nil` on Linux, where
    /// FoundationNetworking reports no metrics. AsyncHTTPClient: `nil` (its public API does not
    /// tell when resolution ends).
    public var dns: Duration?
    /// The TCP connection was established (curl's `time_connect`); `nil` on a reused connection.
    ///
    /// curl: for a new connection. URLSession: on Apple platforms, for a new connection (the start
    /// of the TLS handshake, or `connectEndDate` without TLS); `nil` on Linux. AsyncHTTPClient: for
    /// a new plain-HTTP connection when the request asks for connection events
    /// (``RequestOptions/publishesConnectionEvents``); `nil` over TLS, where AsyncHTTPClient hands
    /// over the connection only once the handshake is done.
    public var connect: Duration?
    /// The TLS handshake finished (curl's `time_appconnect`); `nil` for plain HTTP and on a reused
    /// connection.
    ///
    /// curl: for a new TLS connection. URLSession: on Apple platforms; `nil` on Linux.
    /// AsyncHTTPClient: for a new TLS connection when the request asks for connection events
    /// (``RequestOptions/publishesConnectionEvents``): when AsyncHTTPClient handed the connection
    /// over, right after the handshake and ALPN.
    public var tls: Duration?
    /// Every connection step was done and the request started to go out (curl's `time_pretransfer`).
    ///
    /// curl: always. URLSession: on Apple platforms (`requestStartDate`); `nil` on Linux.
    /// AsyncHTTPClient: when the request asks for connection events
    /// (``RequestOptions/publishesConnectionEvents``): when its head went to the connection.
    public var requestStart: Duration?
    /// The first byte of the response arrived (time to first byte, curl's `time_starttransfer`).
    /// Every transport.
    public var firstByte: Duration?
    /// The exchange finished, including the whole body (curl's `time_total`). Every transport.
    public var total: Duration?
    /// The HTTP version the response came over (`nil`: the transport could not tell, as URLSession on Linux).
    /// Not a phase, but reported with them so timing statistics and waterfalls can tell HTTP/2 exchanges apart.
    public var httpVersion: HTTPProtocolVersion?
    /// How many connections the exchange opened (curl's `num_connects`): `0` when it went over a
    /// reused connection.
    ///
    /// curl: always. URLSession: on Apple platforms (`isReusedConnection`); `nil` on Linux.
    /// AsyncHTTPClient: when the request asks for connection events
    /// (``RequestOptions/publishesConnectionEvents``).
    public var newConnections: Int?
    /// The IP address the exchange went to (curl's `remote_ip`): the server's, or the proxy's.
    ///
    /// curl: always. URLSession: on Apple platforms; `nil` on Linux. AsyncHTTPClient: when the
    /// request asks for connection events (``RequestOptions/publishesConnectionEvents``).
    public var remoteAddress: String?
    /// The port the exchange went to (curl's `remote_port`); filled as ``remoteAddress`` is.
    public var remotePort: Int?

    /// Creates timings; every phase defaults to unknown.
    /// - Parameters:
    ///   - dns: Name resolution finished.
    ///   - connect: Connection established.
    ///   - tls: TLS handshake finished.
    ///   - requestStart: The request started to go out.
    ///   - firstByte: First response byte arrived.
    ///   - total: Exchange finished.
    ///   - httpVersion: The HTTP version of the response.
    ///   - newConnections: Connections the exchange opened.
    ///   - remoteAddress: The IP address the exchange went to.
    ///   - remotePort: The port the exchange went to.
    public init(
        dns: Duration? = nil,
        connect: Duration? = nil,
        tls: Duration? = nil,
        requestStart: Duration? = nil,
        firstByte: Duration? = nil,
        total: Duration? = nil,
        httpVersion: HTTPProtocolVersion? = nil,
        newConnections: Int? = nil,
        remoteAddress: String? = nil,
        remotePort: Int? = nil
    ) {
        self.httpVersion = httpVersion
        self.dns = dns
        self.connect = connect
        self.tls = tls
        self.requestStart = requestStart
        self.firstByte = firstByte
        self.total = total
        self.newConnections = newConnections
        self.remoteAddress = remoteAddress
        self.remotePort = remotePort
    }

    /// The phases that are present, in their order (`dns`, `connect`, `tls`, `requestStart`,
    /// `firstByte`, `total`), by name: for checks that they only grow, and for reports.
    public var presentPhases: [(name: String, value: Duration)] {
        let all: [(String, Duration?)] = [
            ("dns", dns), ("connect", connect), ("tls", tls), ("requestStart", requestStart),
            ("firstByte", firstByte), ("total", total)
        ]
        return all.compactMap { name, value in value.map { (name, $0) } }
    }
}

extension Duration {
    /// The duration in milliseconds, as a floating-point number (for reports and JSON).
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}
