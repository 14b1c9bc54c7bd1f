public import HTTPTypes

/// The entry point: owns a transport and a chain of interceptors, and sends requests through both.
///
/// ```swift
/// let client = Client(transport: CurlTransport())   // the standard chain (module Switchyard)
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
///
/// ### Plugins on a live client
///
/// A department that loads late can add its plugin to a running client, and remove it again:
///
/// ```swift
/// try client.register(PaymentsPlugin.make())
/// try client.unregister(pluginNamed: "payments")
/// ```
///
/// The client swaps in a newly assembled chain; calls already in flight finish with the chain they
/// started with. A call pays one atomic load for this, nothing more.
public struct Client: Sendable {
    /// The largest body ``send(_:)`` buffers when the request sets no ``RequestOptions/maxResponseBytes``.
    public static let defaultMaxBufferedResponseBytes: Int64 = 256 << 20

    private let chains: ChainHolder

    /// Where this client publishes its events (`nil` when it has no bus); subscribe to follow
    /// exchanges. Every exchange's ``ExchangeContext/eventBus`` is this bus.
    public var events: EventBus? { chains.chain.events }

    /// The chain this client runs now.
    public var pipeline: Pipeline { chains.chain.pipeline }

    /// The transport at the end of the chain, so a job that made the client needs no second
    /// reference to shut it down.
    ///
    /// ```swift
    /// try await client.transport.shutdown()
    /// ```
    public var transport: any Transport { chains.chain.pipeline.transport }

    /// The assembled chain, outermost first, ending with the transport: for inspection.
    public var chain: [ChainLink] { chains.chain.links }

    /// The chain's interceptors of type `type`, outermost first (a scoped plugin's own interceptor,
    /// not its scope wrapper): how a feature finds its links in the assembled chain, e.g. to report
    /// on their settings together.
    ///
    /// ```swift
    /// let limiters = client.interceptors(ofType: ConcurrencyLimitInterceptor.self)
    /// ```
    /// - Parameter type: The interceptor type.
    /// - Returns: Every link of that type in the current chain.
    public func interceptors<Link: Interceptor>(ofType type: Link.Type) -> [Link] {
        chains.chain.pipeline.interceptors.compactMap { Pipeline.unwrapped($0) as? Link }
    }

    /// Creates a client with exactly these interceptors and no built-ins.
    ///
    /// Links below the last ``RepeatsTheRestOfTheChain`` link are listed in ``chain``
    /// as attempt links, the others as call links.
    /// - Parameters:
    ///   - transport: The transport that performs the I/O.
    ///   - interceptors: The interceptors, outermost first (see ``Pipeline`` for the order).
    ///   - events: The bus every exchange publishes on; by default the bus of the first
    ///     ``EventsInterceptor`` among `interceptors`, if any.
    public init(transport: any Transport, interceptors: [any Interceptor], events: EventBus? = nil) {
        self.chains = ChainHolder(AssembledChain(transport: transport, interceptors: interceptors, events: events))
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
        self.chains = ChainHolder(try AssembledChain(transport: transport, configuration: configuration))
    }

    /// Adds a plugin to this client (and every copy of it); calls in flight keep their chain.
    ///
    /// A client made from bare interceptors keeps them as its app call interceptors, with the plugin
    /// placed after them (see ``ClientConfiguration`` for the order). Its ``Plugin/companions`` join
    /// with it.
    /// - Parameter plugin: The plugin.
    /// - Throws: ``PluginConfigurationError`` when its name (or a companion's) is taken or a placement
    ///   cannot be met; the chain is then unchanged.
    public func register(_ plugin: Plugin) throws(PluginConfigurationError) {
        try chains.replace { (chain) throws(PluginConfigurationError) in
            let configuration = try chain.configuration { (plugins) throws(PluginConfigurationError) in
                plugins.append(plugin)
            }
            return try AssembledChain(transport: chain.pipeline.transport, configuration: configuration)
        }
    }

    /// Removes the plugin with this name, with its ``Plugin/companions``; calls in flight keep their
    /// chain. A companion's name removes that companion (and its own companions) alone.
    /// - Parameter name: The plugin's ``Plugin/name``.
    /// - Throws: ``PluginConfigurationError/unknownPlugin(_:)`` when no plugin has that name, or
    ///   ``PluginConfigurationError/unknownPlacementTarget(plugin:target:position:)`` when another
    ///   plugin is placed relative to it; the chain is then unchanged.
    public func unregister(pluginNamed name: String) throws(PluginConfigurationError) {
        try chains.replace { (chain) throws(PluginConfigurationError) in
            let configuration = try chain.configuration { (plugins) throws(PluginConfigurationError) in
                guard plugins.removePlugin(named: name) else { throw .unknownPlugin(name) }
            }
            return try AssembledChain(transport: chain.pipeline.transport, configuration: configuration)
        }
    }

    /// Sends a request and returns as soon as the response head arrives; the body streams.
    ///
    /// Stop reading (or cancel the task) to abandon the rest of the body; the transport then
    /// closes the connection rather than reading what is left.
    /// - Parameter request: The request.
    /// - Returns: The response head, a streaming body and the exchange context.
    /// - Throws: A ``SwitchyardError``.
    public func stream(_ request: Request) async throws(SwitchyardError) -> StreamedResponse {
        let chain = chains.chain
        let context = chain.makeContext(for: request)
        let response = try await run(request, chain: chain, context: context)
        return StreamedResponse(head: response.head, body: response.body ?? HTTPBody([]), context: context)
    }

    /// Sends a request and reads the whole response body into memory.
    /// - Parameter request: The request.
    /// - Returns: The response head, the body bytes, and the exchange context with final timings.
    /// - Throws: A ``SwitchyardError``; ``SwitchyardError/Kind/responseTooLarge`` when the body is
    ///   bigger than ``RequestOptions/maxResponseBytes`` (default ``defaultMaxBufferedResponseBytes``).
    public func send(_ request: Request) async throws(SwitchyardError) -> BufferedResponse {
        let chain = chains.chain
        let context = chain.makeContext(for: request)
        let response = try await run(request, chain: chain, context: context)
        let limit = request.options.maxResponseBytes ?? Self.defaultMaxBufferedResponseBytes
        do {
            let bytes = try await response.body?.collect(upTo: limit) ?? []
            // A body read to its end is the exchange's answer even if the deadline passed meanwhile:
            // the deadline bounds the wait (the transports and links enforce it while they wait), not
            // a result already in hand, such as a stored response a cache served as the network failed.
            if Task.isCancelled { throw SwitchyardError.cancelled }
            return BufferedResponse(head: response.head, body: bytes, context: context)
        } catch {
            throw .sealing(error, request: request.head, response: response.head)
        }
    }

    /// Publishes a failure that a layer above the chain found after the exchange succeeded on the
    /// wire (an API envelope's error code, an unexpected content type): every ``HearsLateFailures``
    /// link of the chain hears it, innermost first (as if the failure had come out of the chain),
    /// and then a `failed` event is published on ``events``.
    ///
    /// - Parameters:
    ///   - error: The failure.
    ///   - request: The request as it was sent.
    ///   - context: The exchange's context (from the response).
    public func reportFailure(_ error: SwitchyardError, of request: Request, context: ExchangeContext) {
        for link in chains.chain.lateFailureLinks {
            link.hearLateFailure(error, of: request, context: context)
        }
        context.publish(error.kind == .cancelled ? .cancelled : .failed(error), request: request)
    }

    private func run(_ request: Request, chain: AssembledChain, context: ExchangeContext) async throws(SwitchyardError) -> Response {
        let request = try Self.prepare(request, chain: chain, context: context)
        return try await chain.pipeline.run(request, context: context, from: 0)
    }

    /// The request as the chain receives it: validated, with the chain's `User-Agent`, and only while
    /// the exchange is live. Synchronous and never inlined, so its temporaries (the field lookups,
    /// the error it may build) live on the thread's stack, not in the async frame of every request.
    @inline(never)
    private static func prepare(_ request: Request, chain: AssembledChain, context: ExchangeContext) throws(SwitchyardError)
        -> Request
    {
        var request = request
        do throws(SwitchyardError) {
            if !request.isValidated { try RequestValidator.validate(request.head) }
            if let userAgent = chain.userAgent {
                if request.head.headerFields.isEmpty, let alone = chain.userAgentAlone {
                    request.setValidatedFields(alone)
                } else if !request.head.headerFields.containsField(named: .userAgent) {
                    try request.appendValidatedField(userAgent.get())
                }
            }
            try context.checkLiveness()
        } catch {
            throw .sealing(error, request: request.head)
        }
        return request
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

    /// The response's status: the same as `head.status`.
    public var status: HTTPResponse.Status { head.status }

    /// The response's header fields: the same as `head.headerFields`.
    public var headerFields: HTTPFields { head.headerFields }

    /// The phase timings of the exchange, including ``TransferTimings/total``.
    public var timings: TransferTimings { context.timings }

    /// The HTTP version the response came over (`"2"` when HTTP/2 was negotiated), or `nil` when the
    /// transport cannot tell; the same as ``TransferTimings/httpVersion``.
    public var httpVersion: HTTPProtocolVersion? { context.timings.httpVersion }

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

    /// The response's status: the same as `head.status`.
    public var status: HTTPResponse.Status { head.status }

    /// The response's header fields: the same as `head.headerFields`.
    public var headerFields: HTTPFields { head.headerFields }
}
