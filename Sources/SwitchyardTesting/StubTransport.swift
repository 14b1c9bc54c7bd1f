public import HTTPTypes
public import SwitchyardCore

/// A transport that answers from a closure instead of the network, and counts its calls.
///
/// Use it to test interceptors and screens without a server:
///
/// ```swift
/// let stub = StubTransport.status(.ok, body: "hello")
/// let client = Client(transport: stub, interceptors: [myInterceptor])
/// _ = try await client.send(try Request(url: "https://example.com/"))
/// #expect(stub.callCount == 1)
/// #expect(stub.requests.first?.head.path == "/")
/// ```
///
/// To answer several endpoints by method and path — with sequences, delays and per-route counts — use
/// ``RoutedStubTransport``; to serve exchanges recorded from a real server, use ``ReplayingTransport``.
public final class StubTransport: Transport {
    /// Answers one request.
    public typealias Handler = @Sendable (Request, ExchangeContext) async throws -> Response

    private let handler: Handler
    private let recorded = Lock<[Request]>([])

    /// Creates a stub answering every request with `handler`.
    /// - Parameter handler: Produces the response (or throws the error) for a request.
    public init(_ handler: @escaping Handler) {
        self.handler = handler
    }

    /// A stub answering every request with `status` and `body`.
    /// - Parameters:
    ///   - status: The status code.
    ///   - body: The body text.
    /// - Returns: The stub.
    public static func status(_ status: HTTPResponse.Status, body: String = "") -> StubTransport {
        StubTransport { _, _ in Response(status: status, body: Array(body.utf8)) }
    }

    /// A stub failing every request with `error`.
    /// - Parameter error: The error to throw.
    /// - Returns: The stub.
    public static func failing(_ error: SwitchyardError) -> StubTransport {
        StubTransport { _, _ in throw error }
    }

    /// The requests received so far, in order.
    public var requests: [Request] { recorded.withLock { $0 } }

    /// How many requests were received.
    public var callCount: Int { recorded.withLock { $0.count } }

    /// Records the request and answers it with the handler.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The exchange context.
    /// - Returns: The handler's response.
    /// - Throws: The handler's error.
    public nonisolated(nonsending) func send(_ request: Request, context: ExchangeContext) async throws -> Response {
        recorded.withLock { $0.append(request) }
        return try await handler(request, context)
    }
}
