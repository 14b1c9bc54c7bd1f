public import Switchyard
public import SwitchyardCurl
public import SwitchyardTestServer

/// Starts a loopback server, runs `body`, and always shuts the server down.
/// - Parameters:
///   - configuration: The server's configuration.
///   - body: The test, given the running server.
/// - Returns: What `body` returns.
/// - Throws: What `body` or the server's start or shutdown throws.
public func withLoopbackServer<T>(
    _ configuration: LoopbackServer.Configuration = .init(),
    _ body: (LoopbackServer) async throws -> T
) async throws -> T {
    let server = try await LoopbackServer.start(configuration)
    do {
        let result = try await body(server)
        try await server.shutdown()
        return result
    } catch {
        try? await server.shutdown()
        throw error
    }
}

/// Starts a loopback server and a client over `transport`, runs `body`, then calls `shutdown`
/// (for transports that own resources) and shuts the server down, whether or not `body` threw.
/// - Parameters:
///   - transport: The transport under test.
///   - interceptors: The client's interceptors, in order.
///   - shutdown: Releases the transport's resources; nothing by default.
///   - body: The test, given the client and the server.
/// - Returns: What `body` returns.
/// - Throws: What `body`, `shutdown` or the server throws.
public func withLoopbackClient<T, Link: Transport>(
    transport: Link,
    interceptors: [any Interceptor] = [],
    shutdown: (Link) async throws -> Void = { _ in },
    _ body: (Client, LoopbackServer) async throws -> T
) async throws -> T {
    try await withLoopbackServer { server in
        let client = Client(transport: transport, interceptors: interceptors)
        do {
            let result = try await body(client, server)
            try await shutdown(transport)
            return result
        } catch {
            try? await shutdown(transport)
            throw error
        }
    }
}

/// Starts a loopback server and a client assembled from `configuration` over a new transport of
/// `kind`, runs `body`, then shuts the transport and the server down, whether or not `body` threw.
/// - Parameters:
///   - kind: The transport.
///   - configuration: The client's configuration (built-ins, plugins, traffic control).
///   - idleTimeout: The transport's idle timeout (``TransportKind/make(idleTimeout:)``).
///   - body: The test, given the client and the server.
/// - Returns: What `body` returns.
/// - Throws: What building the client, `body` or the server throws.
public func withLoopbackClient<T>(
    _ kind: TransportKind, configuration: ClientConfiguration, idleTimeout: Duration? = IdleTimeout.default,
    _ body: (Client, LoopbackServer) async throws -> T
) async throws -> T {
    try await withLoopbackServer { server in
        let transport = kind.make(idleTimeout: idleTimeout)
        do {
            let result = try await body(try Client(transport: transport, configuration: configuration), server)
            try await transport.shutdown()
            return result
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }
}

/// Starts a loopback server and a curl client, runs `body`, and shuts both down.
/// - Parameters:
///   - interceptors: The client's interceptors, in order.
///   - configuration: The curl transport's configuration.
///   - body: The test, given the client and the server.
/// - Returns: What `body` returns.
/// - Throws: What `body` or the server throws.
public func withCurlClient<T>(
    interceptors: [any Interceptor] = [],
    configuration: CurlTransport.Configuration = .init(),
    _ body: (Client, LoopbackServer) async throws -> T
) async throws -> T {
    try await withLoopbackClient(transport: CurlTransport(configuration: configuration), interceptors: interceptors, body)
}

/// Starts a loopback server and an assembled curl client (built-ins, plugins and all, from
/// `configuration`), runs `body`, and shuts the server down.
/// - Parameters:
///   - configuration: The client's configuration.
///   - body: The test, given the client and the server.
/// - Returns: What `body` returns.
/// - Throws: What building the client, `body` or the server throws.
public func withCurlClient<T>(
    configuration: ClientConfiguration,
    _ body: (Client, LoopbackServer) async throws -> T
) async throws -> T {
    try await withLoopbackServer { server in
        try await body(try Client(transport: CurlTransport(), configuration: configuration), server)
    }
}

/// Sends `request` and returns the error it failed with, or `nil` if it succeeded.
/// - Parameters:
///   - client: The client.
///   - request: The request.
/// - Returns: The error, or `nil`.
public func failure(of client: Client, _ request: Request) async -> SwitchyardError? {
    do {
        _ = try await client.send(request)
        return nil
    } catch {
        return error
    }
}
