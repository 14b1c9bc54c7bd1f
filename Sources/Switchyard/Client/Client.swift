public import HTTPTypes

/// The entry point: owns a transport and a chain of interceptors, and sends requests through both.
///
/// ```swift
/// let client = Client(transport: CurlTransport(), interceptors: [logging, retry])
///
/// // Buffered: the whole body in memory (bounded by `maxResponseBytes`).
/// let response = try await client.send(try Request(url: "https://example.com/users/42"))
/// print(response.head.status, response.body.count, response.timings.total ?? .zero)
///
/// // Streamed: chunks as they arrive, with back-pressure.
/// let streamed = try await client.stream(try Request(url: "https://example.com/big.iso"))
/// for try await chunk in streamed.body { try file.write(contentsOf: chunk) }
/// ```
///
/// Replacing the framework underneath is a one-line change: pass another ``Transport``.
/// Cancelling the calling task, or passing the request's deadline, stops the exchange on the
/// wire; each call ends exactly once, with a response or with a ``SwitchyardError``.
public struct Client: Sendable {
    /// The largest body ``send(_:)`` buffers when the request sets no ``RequestOptions/maxResponseBytes``.
    public static let defaultMaxBufferedResponseBytes: Int64 = 256 << 20

    /// Where this client publishes its events (`nil` for a client made from bare interceptors);
    /// subscribe to show pop-ups or follow exchanges.
    public let events: EventBus?

    /// The chain this client runs.
    public let pipeline: Pipeline

    /// The assembled chain, outermost first, ending with the transport: for inspection.
    public let chain: [ChainLink]

    /// Header rules (of ``ClientConfiguration/headers`` and of plugins) from different owners that
    /// change the same field for requests both could match, with the one that wins. Empty for a
    /// client made from bare interceptors.
    public let headerConflicts: [HeaderConflict]

    /// Creates a client with exactly these interceptors and no built-ins.
    /// - Parameters:
    ///   - transport: The transport that performs the I/O.
    ///   - interceptors: The interceptors, outermost first (see ``Pipeline`` for the order).
    public init(transport: any Transport, interceptors: [any Interceptor] = []) {
        self.pipeline = Pipeline(interceptors: interceptors, transport: transport)
        self.events = nil
        self.headerConflicts = []
        self.chain = interceptors.map { ChainLink(name: Pipeline.name(of: $0), position: .call, origin: .app) }
            + [ChainLink(name: String(describing: type(of: transport)), position: .attempt, origin: .transport)]
    }

    /// Creates a client whose chain is assembled from built-ins, plugins and the app's interceptors
    /// (see ``ClientConfiguration`` for the order).
    ///
    /// ```swift
    /// let client = try Client(transport: CurlTransport(), configuration: ClientConfiguration(plugins: [signing]))
    /// ```
    /// - Parameters:
    ///   - transport: The transport that performs the I/O.
    ///   - configuration: The built-ins' settings, plugins and app interceptors.
    /// - Throws: ``PluginConfigurationError`` when plugin names repeat or placements cannot be met.
    public init(transport: any Transport, configuration: ClientConfiguration) throws(PluginConfigurationError) {
        let assembly = try ChainAssembly(configuration, transport: transport)
        self.pipeline = Pipeline(interceptors: assembly.interceptors, transport: transport)
        self.chain = assembly.links
        self.headerConflicts = assembly.headerConflicts
        self.events = configuration.events
    }

    /// Sends a request and returns as soon as the response head arrives; the body streams.
    ///
    /// Stop reading (or cancel the task) to abandon the rest of the body; the transport then
    /// closes the connection rather than reading what is left.
    /// - Parameter request: The request.
    /// - Returns: The response head, a streaming body and the exchange context.
    /// - Throws: A ``SwitchyardError``.
    public func stream(_ request: Request) async throws(SwitchyardError) -> StreamedResponse {
        let context = ExchangeContext(options: request.options)
        let response = try await run(request, context: context)
        return StreamedResponse(head: response.head, body: response.body ?? HTTPBody([]), context: context)
    }

    /// Sends a request and reads the whole response body into memory.
    /// - Parameter request: The request.
    /// - Returns: The response head, the body bytes, and the exchange context with final timings.
    /// - Throws: A ``SwitchyardError``; ``SwitchyardError/Kind/responseTooLarge`` when the body is
    ///   bigger than ``RequestOptions/maxResponseBytes`` (default ``defaultMaxBufferedResponseBytes``).
    public func send(_ request: Request) async throws(SwitchyardError) -> BufferedResponse {
        let context = ExchangeContext(options: request.options)
        let response = try await run(request, context: context)
        let limit = request.options.maxResponseBytes ?? Self.defaultMaxBufferedResponseBytes
        do {
            let bytes = try await response.body?.collect(upTo: limit) ?? []
            try context.checkLiveness()
            return BufferedResponse(head: response.head, body: bytes, context: context)
        } catch {
            var wrapped = SwitchyardError.wrapping(error)
            if wrapped.request == nil { wrapped.request = request.head }
            if wrapped.response == nil { wrapped.response = response.head }
            throw wrapped
        }
    }

    private func run(_ request: Request, context: ExchangeContext) async throws(SwitchyardError) -> Response {
        do {
            try RequestValidator.validate(request.head)
            try context.checkLiveness()
            return try await pipeline.run(request, context: context, from: 0)
        } catch {
            var wrapped = SwitchyardError.wrapping(error)
            if wrapped.request == nil { wrapped.request = request.head }
            throw wrapped
        }
    }
}

/// A response whose body has been read into memory by ``Client/send(_:)``.
public struct BufferedResponse: Sendable {
    /// Status and header fields.
    public var head: HTTPResponse
    /// The complete body.
    public var body: [UInt8]
    /// The exchange's context: id, attempts and timings.
    public let context: ExchangeContext

    /// Creates a buffered response.
    /// - Parameters:
    ///   - head: The response head.
    ///   - body: The body bytes.
    ///   - context: The exchange's context.
    public init(head: HTTPResponse, body: [UInt8], context: ExchangeContext) {
        self.head = head
        self.body = body
        self.context = context
    }

    /// The phase timings of the exchange, including ``TransferTimings/total``.
    public var timings: TransferTimings { context.timings }

    /// The body decoded as UTF-8 (invalid bytes become U+FFFD).
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// A response whose body is still streaming, returned by ``Client/stream(_:)``.
public struct StreamedResponse: Sendable {
    /// Status and header fields.
    public var head: HTTPResponse
    /// The body, read chunk by chunk; iterate it once.
    public var body: HTTPBody
    /// The exchange's context; ``ExchangeContext/timings`` gains `total` when the body ends.
    public let context: ExchangeContext

    /// Creates a streamed response.
    /// - Parameters:
    ///   - head: The response head.
    ///   - body: The streaming body.
    ///   - context: The exchange's context.
    public init(head: HTTPResponse, body: HTTPBody, context: ExchangeContext) {
        self.head = head
        self.body = body
        self.context = context
    }
}
