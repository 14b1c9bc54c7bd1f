public import Switchyard
public import SwitchyardTestServer

/// Generates certificates, starts an HTTPS loopback server with them (offering `h2` by ALPN when
/// `http2`, only `http/1.1` otherwise) and a client over a new `kind` transport that trusts their CA
/// and publishes on `bus`; runs `body`, then shuts the transport (again, if `body` did) and the
/// server down, and removes the certificates.
/// - Parameters:
///   - kind: The transport (URLSession cannot trust a generated CA on Linux).
///   - http2: Whether the server offers `h2`.
///   - bus: The client's event bus.
///   - body: The test, given the client, the server and the transport (to shut it down early).
/// - Returns: What `body` returns.
/// - Throws: What generating certificates, `body` or the server throws.
public func withTLSLoopbackClient<T>(
    _ kind: TransportKind, http2: Bool = false, events bus: EventBus? = nil,
    _ body: (Client, LoopbackServer, any Transport) async throws -> T
) async throws -> T {
    let certificates = try TestCertificates.generate()
    defer { certificates.remove() }
    let serving = LoopbackServer.TLS(identity: certificates.server, applicationProtocols: http2 ? ["h2", "http/1.1"] : ["http/1.1"])
    return try await withLoopbackServer(.init(tls: serving)) { server in
        let transport = kind.make(tls: TLSOptions(trustRoots: .only(certificateFiles: [certificates.ca.certificateFile])))
        do {
            let result = try await body(Client(transport: transport, interceptors: [], events: bus), server, transport)
            try await transport.shutdown()
            return result
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }
}

extension CollectedEvents {
    /// The names of the connection events published for `exchange`, in order (`connectionOpened`,
    /// `connectionReused`, `tlsNegotiated`, `connectionClosed`).
    /// - Parameter exchange: The exchange's identifier (`response.context.id`).
    /// - Returns: The names.
    public func connectionEvents(of exchange: UInt64) -> [String] {
        all.filter { $0.exchangeID == exchange && Self.connectionEventNames.contains($0.kind.name) }.map(\.kind.name)
    }

    /// The connection the first event named `name` of `exchange` describes.
    /// - Parameters:
    ///   - name: `connectionOpened`, `connectionReused`, `tlsNegotiated` or `connectionClosed`.
    ///   - exchange: The exchange's identifier.
    /// - Returns: The connection, or `nil` when there is no such event.
    public func connection(_ name: String, of exchange: UInt64) -> ConnectionInfo? {
        guard let event = all.first(where: { $0.exchangeID == exchange && $0.kind.name == name }) else { return nil }
        return event.plugin(ConnectionOpened.self)?.connection ?? event.plugin(ConnectionReused.self)?.connection
            ?? event.plugin(ConnectionClosed.self)?.connection ?? event.plugin(TLSNegotiated.self)?.connection
    }

    /// The ``TLSNegotiated`` event of `exchange`, if any.
    /// - Parameter exchange: The exchange's identifier.
    /// - Returns: The event.
    public func tlsNegotiated(of exchange: UInt64) -> TLSNegotiated? {
        all.lazy.filter { $0.exchangeID == exchange }.compactMap { $0.plugin(TLSNegotiated.self) }.first
    }

    private static let connectionEventNames: Set = ["connectionOpened", "connectionReused", "tlsNegotiated", "connectionClosed"]
}

/// Whether the phases `timings` reports grow in their order: `dns ≤ connect ≤ tls ≤ requestStart ≤
/// firstByte ≤ total` (absent phases skipped).
/// - Parameter timings: The timings.
/// - Returns: Whether they are in order.
public func phasesAreOrdered(_ timings: TransferTimings) -> Bool {
    let phases = timings.presentPhases
    return zip(phases, phases.dropFirst()).allSatisfy { $0.value <= $1.value }
}
