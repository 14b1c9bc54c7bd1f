/// A link in the chain: it sees each request on its way to the transport and each response or
/// error on its way back.
///
/// An interceptor may change the request, answer it itself without calling `next` (a cache hit,
/// a stub), call `next` once (the usual case) or several times (another attempt), and observe or change
/// the response or the error.
///
/// ### Choose between a transport and an interceptor
///
/// A ``Transport`` performs I/O: it turns a request into bytes on a wire and bytes back into a
/// response. An interceptor performs no I/O of its own; it transforms and decides, and calls
/// `next` to reach the transport. Every feature of the chain is made of interceptors.
///
/// ### Use an existing interceptor
///
/// ```swift
/// let client = Client(transport: CurlTransport(), interceptors: [
///     ClosureInterceptor { request, context, next in
///         var request = request
///         request.head.headerFields[.userAgent] = "MyApp/1.0"
///         return try await next(request)
///     },
/// ])
/// ```
///
/// ### Implement a custom interceptor
///
/// ```swift
/// struct RequestIDInterceptor: Interceptor {
///     func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
///         var request = request
///         request.head.headerFields[HTTPField.Name("X-Request-ID")!] = String(context.id)
///         let response = try await next(request)
///         return response
///     }
/// }
/// ```
///
/// ### Where it runs
///
/// The requirement is `nonisolated(nonsending)`: a link runs on the executor of the link that
/// called it, so a request crosses the whole chain without a hop between links. ``Client/send(_:)``
/// and ``Client/stream(_:)`` leave the caller's actor once, for the global pool or the task's
/// preferred executor. An `intercept` written without the attribute still conforms; it then runs on
/// the global pool, at the cost of one executor switch per call. Mark your own links
/// `nonisolated(nonsending)` too, unless they must leave the caller's executor.
public protocol Interceptor: Sendable {
    /// Handles one request on its way down the chain.
    /// - Parameters:
    ///   - request: The request as the previous link passed it.
    ///   - context: The exchange's shared state: id, attempt, deadline, timings, plugin storage.
    ///   - next: The rest of the chain; call it to continue towards the transport.
    /// - Returns: The response to hand back up the chain.
    /// - Throws: Any error; the chain converts it into a ``SwitchyardError`` once, at its boundary.
    nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response
}

/// The rest of the chain after one interceptor: a cheap value (the pipeline, a position and the
/// context), so calling through N interceptors allocates no closure per hop.
public struct Next: Sendable {
    @usableFromInline let pipeline: Pipeline
    @usableFromInline let index: Int
    /// The context the rest of the chain runs with: the exchange's own, or the new one of
    /// ``startingExchange(options:)``.
    public let context: ExchangeContext

    @usableFromInline
    init(pipeline: Pipeline, index: Int, context: ExchangeContext) {
        self.pipeline = pipeline
        self.index = index
        self.context = context
    }

    /// Sends `request` through the remaining interceptors and the transport.
    /// - Parameter request: The request to send.
    /// - Returns: The response from further down the chain.
    /// - Throws: A ``SwitchyardError`` from further down the chain (never any other error).
    @inlinable
    public nonisolated(nonsending) func callAsFunction(_ request: Request) async throws(SwitchyardError) -> Response {
        try await pipeline.run(request, context: context, from: index)
    }

    /// The rest of the chain for an exchange of its own, starting now: a new context (a new id,
    /// attempt 1, a deadline from `options`, empty timings and plugin values) that publishes to the
    /// same event bus and plugin observers.
    ///
    /// For work a link does on its own behalf beside the exchange it serves — a background refresh,
    /// a prefetch — which must neither run against that exchange's deadline nor change its attempt,
    /// timings or plugin values, nor publish events under its id:
    ///
    /// ```swift
    /// var options = request.options
    /// options.deadline = nil
    /// options.timeout = .seconds(30)
    /// let refresh = next.startingExchange(options: options)
    /// Task.detached { _ = try? await refresh(request) }
    /// ```
    ///
    /// The links above this one are not part of the new exchange; the chain's stage timings are not
    /// profiled for it.
    /// - Parameter options: The new exchange's options; its deadline is derived from them.
    /// - Returns: The rest of the chain, from the same position, with the new context.
    public func startingExchange(options: RequestOptions) -> Next {
        let fresh = ExchangeContext(
            options: options, startedAt: .now, eventBus: context.eventBus, observers: context.observers, profiledLinks: nil)
        return Next(pipeline: pipeline, index: index, context: fresh)
    }
}

/// An interceptor made from a closure, for one-off links.
///
/// ```swift
/// let addToken = ClosureInterceptor { request, context, next in
///     var request = request
///     request.head.headerFields[.authorization] = "Bearer \(token)"
///     return try await next(request)
/// }
/// ```
public struct ClosureInterceptor: Interceptor {
    /// The closure's shape: the same as ``Interceptor/intercept(_:context:next:)``.
    public typealias Body = @Sendable (Request, ExchangeContext, Next) async throws -> Response

    private let body: Body
    /// A name for errors and chain listings.
    public let name: String

    /// Creates an interceptor from a closure.
    /// - Parameters:
    ///   - name: A name shown in errors that the closure throws.
    ///   - body: The interception logic.
    public init(name: String = "ClosureInterceptor", _ body: @escaping Body) {
        self.name = name
        self.body = body
    }

    /// Calls the closure.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The exchange context.
    ///   - next: The rest of the chain.
    /// - Returns: The closure's response.
    /// - Throws: The closure's error.
    public nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        try await body(request, context, next)
    }
}
