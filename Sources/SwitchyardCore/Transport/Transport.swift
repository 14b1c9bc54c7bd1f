/// Performs the I/O of one HTTP exchange: the last link of every chain.
///
/// A transport sends one request and returns the response head with a body that may still be
/// streaming, and nothing more: a new location, a stored response, cookies, another attempt are
/// the chain's work, identical for every backend.
///
/// ### Choose between a transport and an interceptor
///
/// Write a transport when you move bytes (libcurl, URLSession, AsyncHTTPClient, a stub).
/// Write an ``Interceptor`` when you transform requests or responses or decide what to do.
///
/// ### Use an existing transport
///
/// ```swift
/// let client = Client(transport: CurlTransport())
/// ```
///
/// ### Implement a custom transport
///
/// Wrap the stack you already have with ``ClosureTransport``, or conform a type:
///
/// ```swift
/// struct EchoTransport: Transport {
///     func send(_ request: Request, context: ExchangeContext) async throws -> Response {
///         Response(status: .ok, body: Array(request.head.path ?? "/".utf8))
///     }
/// }
/// ```
///
/// A transport over a stack that reports a head, body chunks and an end from callbacks should need
/// only that I/O: the transport kit (`SwitchyardTransportKit`) supplies the response stream with its water marks and single
/// outcome (`ResponseStream`, driven by a `ResponseStreamDriver`), the body that cancels when
/// dropped (`StreamedResponseBody`), the upload pump (`UploadPump`),
/// ``withDeadline(_:timeoutError:_:)``, `ResponseHeadRules/hasBody(method:status:)` and the
/// failure messages of `TransportFailure`. `Tests/SwitchyardTransportKitTests/WriteATransportTests.swift`
/// shows one in about thirty lines.
///
/// A conforming transport must:
/// - stop promptly when the calling task is cancelled, and throw ``SwitchyardError/Kind/cancelled``;
/// - finish by ``ExchangeContext/deadline``, or throw ``SwitchyardError/Kind/timeout``;
/// - enforce ``RequestOptions/maxResponseBytes`` while the body streams;
/// - never return a silently truncated body: a short body ends in ``SwitchyardError/Kind/protocolViolation``.
///
/// `send` is `nonisolated(nonsending)`, as ``Interceptor/intercept(_:context:next:)`` is: it runs on the
/// executor of the link that called it (no hop between the last link and the transport), so it must
/// not block. A `send` written without the attribute conforms too, and runs on the global pool.
public protocol Transport: Sendable {
    /// Sends one request.
    /// - Parameters:
    ///   - request: The request, exactly as it should go on the wire.
    ///   - context: The exchange context: deadline, options and the timings to record.
    /// - Returns: The response head and body; the body may still be streaming.
    /// - Throws: A ``SwitchyardError`` (other errors are wrapped as ``SwitchyardError/Kind/transport``).
    nonisolated(nonsending) func send(_ request: Request, context: ExchangeContext) async throws -> Response

    /// Releases what the transport owns (threads, connections, a client it created), waiting until
    /// they are gone. Call it once, when you are done with the transport; requests still in flight
    /// fail. Callers that hold `any Transport` can always call it: transports that own nothing to
    /// release keep the default, which does nothing.
    /// - Throws: The stack's shutdown failure, if any.
    func shutdown() async throws

    /// The executor on which the transport completes its work, if it has one that can also run tasks
    /// (`nil` by default). A task that prefers it (`withTaskExecutorPreference(_:operation:)`,
    /// `Task(executorPreference:)`, `addTask(executorPreference:)`) runs its chain and reads its
    /// responses on the transport's own thread, so a request costs no hand-off between threads: the
    /// shape of an event-loop server. Such a task must not block that thread (no waiting on a
    /// semaphore, no long computation), or every request of the transport waits with it.
    var taskExecutor: (any TaskExecutor)? { get }
}

extension Transport {
    /// Does nothing by default: the transport owns nothing that needs an orderly shutdown.
    public func shutdown() async throws {}

    /// `nil` by default: the transport has no executor of its own that can run tasks.
    public var taskExecutor: (any TaskExecutor)? { nil }
}

/// A transport made from a closure: wraps any existing HTTP stack in a few lines.
///
/// ```swift
/// let legacy = ClosureTransport { request, context in
///     let (status, bytes) = try await myOldStack.fetch(request.head.url!)
///     return Response(status: .init(code: status), body: bytes)
/// }
/// let client = Client(transport: legacy, interceptors: [...])
/// ```
///
/// The adapter enforces the request's deadline around the closure, so a stack that ignores
/// deadlines still cannot make the exchange hang past it.
public struct ClosureTransport: Transport {
    /// The closure's shape: the same as ``Transport/send(_:context:)``.
    public typealias Body = @Sendable (Request, ExchangeContext) async throws -> Response

    private let body: Body

    /// Creates a transport from a closure.
    /// - Parameter body: Sends one request and returns its response.
    public init(_ body: @escaping Body) {
        self.body = body
    }

    /// Calls the closure, bounded by the context's deadline.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The exchange context.
    /// - Returns: The closure's response.
    /// - Throws: The closure's error, or ``SwitchyardError/Kind/timeout`` at the deadline.
    public nonisolated(nonsending) func send(_ request: Request, context: ExchangeContext) async throws -> Response {
        try await withDeadline(context.deadline) { try await body(request, context) }
    }
}
