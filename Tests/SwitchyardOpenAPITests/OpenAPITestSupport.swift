import Foundation
import HTTPTypes
import OpenAPIRuntime
import Switchyard
import SwitchyardOpenAPI
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// The transports the bridge is tested on.
let bridgeTransports: [TransportKind] = [.curl, .asyncHTTPClient]

/// A loopback server, a Switchyard client over a new transport of `kind`, and the generated-style
/// client on top of it; everything is shut down after `body`.
/// - Parameters:
///   - kind: The Switchyard transport.
///   - configuration: The Switchyard client's configuration (no retry by default).
///   - middlewares: OpenAPI middlewares of the generated client.
///   - body: The test, given the generated client, the Switchyard client and the server.
func withGeneratedClient<T>(
    _ kind: TransportKind,
    configuration: ClientConfiguration = ClientConfiguration(retry: nil),
    middlewares: [any ClientMiddleware] = [],
    _ body: (Client, Switchyard.Client, LoopbackServer) async throws -> T
) async throws -> T {
    try await withLoopbackServer { server in
        let transport = kind.make()
        do {
            let switchyard = try Switchyard.Client(transport: transport, configuration: configuration)
            let api = Client(
                serverURL: try #require(URL(string: server.baseURL)),
                transport: SwitchyardClientTransport(client: switchyard),
                middlewares: middlewares
            )
            let result = try await body(api, switchyard, server)
            try await transport.shutdown()
            return result
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }
}

/// An OpenAPI middleware that sends the request to another path (keeping the query), so an
/// operation can reach a test route such as `/stall`.
struct RerouteMiddleware: ClientMiddleware {
    var path: String

    func intercept(
        _ request: HTTPRequest, body: OpenAPIRuntime.HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, OpenAPIRuntime.HTTPBody?, URL) async throws -> (HTTPResponse, OpenAPIRuntime.HTTPBody?)
    ) async throws -> (HTTPResponse, OpenAPIRuntime.HTTPBody?) {
        var request = request
        request.path = path
        return try await next(request, body, baseURL)
    }
}

/// An OpenAPI middleware that names the operation in a request header and marks the response.
struct OperationHeaderMiddleware: ClientMiddleware {
    static let requestField = HTTPField.Name("X-OpenAPI-Operation")!
    static let responseField = HTTPField.Name("X-Seen-By-Middleware")!

    func intercept(
        _ request: HTTPRequest, body: OpenAPIRuntime.HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, OpenAPIRuntime.HTTPBody?, URL) async throws -> (HTTPResponse, OpenAPIRuntime.HTTPBody?)
    ) async throws -> (HTTPResponse, OpenAPIRuntime.HTTPBody?) {
        var request = request
        request.headerFields[Self.requestField] = operationID.isEmpty ? "none" : operationID
        var (response, responseBody) = try await next(request, body, baseURL)
        response.headerFields[Self.responseField] = "yes"
        return (response, responseBody)
    }
}

/// A streamed body of `count` pattern bytes in chunks of `chunkSize`, iterable once.
func patternStream(count: Int, chunkSize: Int) -> AsyncStream<ArraySlice<UInt8>> {
    AsyncStream { continuation in
        var offset = 0
        while offset < count {
            let end = min(offset + chunkSize, count)
            continuation.yield(ArraySlice((offset..<end).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }))
            offset = end
        }
        continuation.finish()
    }
}

/// The bytes ``patternStream(count:chunkSize:)`` yields.
func patternBytes(count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
}
