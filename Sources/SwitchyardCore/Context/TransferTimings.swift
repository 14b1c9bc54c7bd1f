/// Where the time of one exchange went, in one schema for every transport.
///
/// Every phase is measured from the moment the transport started the attempt, so the values are
/// cumulative, as in curl's `CURLINFO_*_TIME_T`: `dns ≤ connect ≤ tls ≤ firstByte ≤ total`.
/// A phase the transport could not observe (a reused connection has no DNS or connect phase
/// of its own; a platform may not report it) is `nil`.
public struct TransferTimings: Sendable, Hashable {
    /// Name resolution finished.
    public var dns: Duration?
    /// The TCP connection was established.
    public var connect: Duration?
    /// The TLS handshake finished (`nil` for plain HTTP).
    public var tls: Duration?
    /// The first byte of the response arrived (time to first byte).
    public var firstByte: Duration?
    /// The exchange finished, including the whole body.
    public var total: Duration?
    /// The HTTP version the response came over (`nil`: the transport could not tell, as URLSession on Linux).
    /// Not a phase, but reported with them so timing statistics and waterfalls can tell HTTP/2 exchanges apart.
    public var httpVersion: HTTPProtocolVersion?

    /// Creates timings; every phase defaults to unknown.
    /// - Parameters:
    ///   - dns: Name resolution finished.
    ///   - connect: Connection established.
    ///   - tls: TLS handshake finished.
    ///   - firstByte: First response byte arrived.
    ///   - total: Exchange finished.
    ///   - httpVersion: The HTTP version of the response.
    public init(
        dns: Duration? = nil,
        connect: Duration? = nil,
        tls: Duration? = nil,
        firstByte: Duration? = nil,
        total: Duration? = nil,
        httpVersion: HTTPProtocolVersion? = nil
    ) {
        self.httpVersion = httpVersion
        self.dns = dns
        self.connect = connect
        self.tls = tls
        self.firstByte = firstByte
        self.total = total
    }
}

extension Duration {
    /// The duration in milliseconds, as a floating-point number (for reports and JSON).
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}
