public import ServiceLifecycle
public import SwitchyardCore

/// A transport as a swift-service-lifecycle `Service`: it runs until the service group shuts down
/// gracefully (or its task is cancelled), then shuts the transport down
/// (`Transport.shutdown()`: `AsyncHTTPClientTransport` closes the `HTTPClient` it
/// created, `CurlTransport` stops its loop thread).
///
/// ```swift
/// let transport = AsyncHTTPClientTransport()
/// let client = Client(transport: transport)
/// let group = ServiceGroup(
///     services: [TransportService(transport), myServer],
///     gracefulShutdownSignals: [.sigterm],
///     logger: logger)
/// try await group.run()
/// ```
///
/// List it before the services that use the client: a `ServiceGroup` shuts services down in reverse
/// order, so the transport goes last, after the services that still send requests while they drain.
/// Requests still in flight when the transport shuts down fail.
public struct TransportService: Service {
    /// The transport shut down on graceful shutdown.
    public let transport: any Transport

    /// Wraps `transport`.
    /// - Parameter transport: The transport to shut down when the service group does.
    public init(_ transport: any Transport) {
        self.transport = transport
    }

    /// Waits for graceful shutdown (or cancellation), then shuts the transport down.
    /// - Throws: The transport's shutdown failure, if any.
    public func run() async throws {
        // Cancellation ends the wait with an error; the transport is shut down either way.
        try? await gracefulShutdown()
        try await transport.shutdown()
    }
}
