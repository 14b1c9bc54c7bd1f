public import AsyncHTTPClient
import HTTPTypes
import NIOCore
import NIOHTTP1
public import SwitchyardCore
import SwitchyardTransportKit
import Synchronization

/// A `Transport` over swift-server/async-http-client (SwiftNIO).
///
/// Make one that owns its `HTTPClient`, configured for the chain (no redirects, decoded
/// gzip/deflate, up to 64 connections per host), and shut it down when you are done:
///
/// ```swift
/// let transport = AsyncHTTPClientTransport()
/// let client = Client(transport: transport)
/// let response = try await client.send(try Request(url: "https://example.com/"))
/// print(response.head.status, response.text)
/// try await transport.shutdown()
/// ```
///
/// Or wrap the `HTTPClient` your app already has; the app keeps owning it:
///
/// ```swift
/// // The same settings an owned client gets; adjust TLS, proxies etc. as your app needs.
/// let httpClient = HTTPClient(configuration: AsyncHTTPClientTransport.Configuration().httpClientConfiguration)
/// let client = Client(transport: AsyncHTTPClientTransport(wrapping: httpClient))
/// ```
///
/// Response bodies stream with AsyncHTTPClient's back-pressure; cancelling the calling task, passing
/// the deadline, exceeding `RequestOptions.maxResponseBytes` or dropping an unread body cancels the
/// request in AsyncHTTPClient, which closes its connection.
///
/// ### Ownership and shutdown
///
/// An owned client runs on NIO's shared singleton event-loop group, so no threads are created per
/// transport. Call ``shutdown()`` when you no longer need the transport: it waits until every
/// connection is closed. If you forget, the transport shuts its client down in the background when
/// the last reference to it (including any still-streaming response body) goes away, so a forgotten
/// shutdown never trips AsyncHTTPClient's "not shut down before deinit" assertion. A wrapped client
/// is never shut down by the transport, and ``shutdown()`` does nothing for it.
///
/// ### Wrapped clients
///
/// A wrapped client keeps its own settings, which are then your responsibility:
/// - **Redirects.** AsyncHTTPClient's default configuration *follows* redirects (up to 5). Switchyard
///   transports never follow them (the chain does), so create the client with
///   `redirectConfiguration: .disallow`. If the wrapped client follows one anyway, the transport does
///   not pass the redirected response off as the original one: it fails with
///   `SwitchyardError.Kind.transport` naming the setting to change.
/// - **Decompression.** The transport decodes `gzip`/`deflate` itself, exactly like the curl
///   transport, and leaves AsyncHTTPClient's decompression off (its default). If your client was
///   created with `decompression: .enabled(…)`, pass `contentDecoding: .byClient`; its size limit then
///   counts what AsyncHTTPClient delivers.
/// - **Connection retries.** With AsyncHTTPClient's default `retryConnectionEstablishment = true`, a
///   refused connection is retried in the background until the request's deadline or the client's
///   connect timeout (10 s by default), whichever comes first, and only then reported as
///   `SwitchyardError.Kind.connectionFailed`; an owned client reports it at once.
/// - **HTTP/2 resets.** AsyncHTTPClient never sends a request again by itself. A stream the server
///   refuses (`REFUSED_STREAM`) fails with `SwitchyardError.requestWasNotProcessed` set, so
///   `RetryInterceptor` may send even a POST again; any other reset, and a stream above the
///   last-stream-id of the server's `GOAWAY` (which swift-nio-http2 1.46 reports as `CANCEL`, so it cannot
///   be told from a reset after processing), is `SwitchyardError.Kind.connectionFailed` without it.
/// - **Tracing.** AsyncHTTPClient takes the bootstrapped global tracer when its configuration is made
///   and adds a span of its own per request, beside the chain's (`SwitchyardTracing`: one span per
///   call and one per attempt on every transport). With the tracing plugin, set
///   `configuration.tracing.tracer = nil` on the client you wrap; an owned client
///   (``Configuration/httpClientConfiguration``) has it off.
/// - **`HTTPClient.shared`** follows up to 20 redirects, limits decompression to a ratio of 25 and
///   keeps 8 connections per host: prefer an owned transport or a client of your own.
///
/// ### What goes on the wire
///
/// The request head is sent as given (header order, repeats and case kept), except that
/// AsyncHTTPClient:
/// - adds `host` (lower-case, at the end) when the request has no `Host` field;
/// - replaces any `Content-Length` / `Transfer-Encoding` with its own framing, derived from the body:
///   `Content-Length` for a known length (omitted when zero for GET, HEAD, DELETE, CONNECT and TRACE;
///   `Content-Length: 0` for POST, PUT and PATCH without a body), `Transfer-Encoding: chunked` otherwise;
/// - adds `Accept-Encoding: deflate, gzip` when decompression is enabled and the request has none (an
///   owned client adds ``defaultAcceptEncoding`` first, matching the curl transport);
/// - sends no `Connection` header of its own over HTTP/1.1 (keep-alive is the default).
///
/// ### Responses and timings
///
/// The head keeps header order, repeats and the server's name case. SwiftNIO maps well-known status
/// codes to its own reason phrases, so the server's reason phrase is kept only for codes NIO does
/// not know. Interim 1xx heads are consumed by AsyncHTTPClient. AsyncHTTPClient's async API reports
/// no phase timings: `TransferTimings.firstByte` (when the head arrived) and `TransferTimings.total`
/// (when the body ended) are recorded for every request. A request that asks for connection events
/// (`RequestOptions.publishesConnectionEvents`) on a transport that owns its client is also watched on
/// its connection (through AsyncHTTPClient's connection initializers): it gets `connectionOpened` or
/// `connectionReused`, `tlsNegotiated` and `connectionClosed` events, and `TransferTimings.requestStart`,
/// `newConnections`, the remote address and, on a new connection, `connect` (plain HTTP) or `tls` (when
/// AsyncHTTPClient handed the connection over, after the handshake). `TransferTimings.dns` stays `nil`,
/// and so does `connect` over TLS: AsyncHTTPClient does not tell when resolution or the TCP connect ended.
public final class AsyncHTTPClientTransport: Transport {
    /// The AsyncHTTPClient instance requests go through (with ``Configuration/proxy`` set: those that
    /// go direct; the transport keeps one more client per proxy).
    public let client: HTTPClient
    /// Whether this transport created ``client`` and is responsible for shutting it down.
    public let ownsClient: Bool

    /// Who decodes `gzip`/`deflate` response bodies of a wrapped `HTTPClient`.
    public enum ContentDecoding: Sendable, Hashable {
        /// The transport, exactly as for an owned client: it adds ``defaultAcceptEncoding`` to requests
        /// without `Accept-Encoding` and inflates bodies as they stream, the size limit counting decoded
        /// bytes. The client must keep AsyncHTTPClient's default `decompression: .disabled` (as
        /// ``Configuration/httpClientConfiguration`` does).
        case byTransport
        /// The client (created with `decompression: .enabled(…)`); heads then drop `Content-Encoding`
        /// and the encoded `Content-Length`, which no longer describe the body.
        case byClient
        /// Nobody: bodies arrive as the server sent them.
        case none
    }

    /// The `Accept-Encoding` added to requests that have none (when the transport decodes).
    private let acceptEncoding: String?
    private let contentDecoding: ContentDecoding
    private let shutdownStarted = Atomic<Bool>(false)
    /// The clients of ``Configuration/proxy``, if any.
    private let proxyClients: AsyncHTTPClientProxyClients?
    /// Why every request fails (a TLS file that could not be loaded), or `nil`.
    private let tlsFailure: SwitchyardError?
    /// Watches connections for requests that ask for connection events (an owned client only).
    private let connectionObserver: AsyncHTTPClientConnectionObserver?

    /// Creates a transport that owns a new `HTTPClient` built from `configuration`.
    ///
    /// Call ``shutdown()`` when you are done with it.
    /// - Parameter configuration: The settings of the owned client.
    public init(configuration: Configuration = Configuration()) {
        let observer = AsyncHTTPClientConnectionObserver()
        var clientConfiguration = configuration.httpClientConfiguration
        observer.install(on: &clientConfiguration)
        self.client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)
        self.ownsClient = true
        self.connectionObserver = observer
        self.proxyClients = configuration.proxy.map {
            AsyncHTTPClientProxyClients($0, base: clientConfiguration)
        }
        self.contentDecoding = configuration.decodesContentEncoding ? .byTransport : .none
        self.acceptEncoding = configuration.decodesContentEncoding ? Self.defaultAcceptEncoding : nil
        self.tlsFailure = configuration.tls.isDefault ? nil : AsyncHTTPClientTLS(configuration.tls).failure
    }

    /// Creates a transport over an `HTTPClient` the app already has; the app keeps owning it.
    ///
    /// Configure the client with `redirectConfiguration: .disallow` (see "Wrapped clients" above).
    /// - Parameters:
    ///   - client: The client to send requests through. The transport never shuts it down.
    ///   - contentDecoding: Who decodes `gzip`/`deflate` bodies; ``ContentDecoding/byTransport`` (the
    ///     default) matches AsyncHTTPClient's default configuration and every other transport.
    public init(wrapping client: HTTPClient, contentDecoding: ContentDecoding = .byTransport) {
        self.client = client
        self.ownsClient = false
        self.connectionObserver = nil
        self.proxyClients = nil
        self.contentDecoding = contentDecoding
        self.acceptEncoding = contentDecoding == .byTransport ? Self.defaultAcceptEncoding : nil
        self.tlsFailure = nil
    }

    deinit {
        // A forgotten shutdown: shut the owned client down in the background. AsyncHTTPClient keeps the
        // client alive until its connections are closed, so its deinit never sees a running client.
        if ownsClient, !shutdownStarted.exchange(true, ordering: .acquiringAndReleasing) {
            client.shutdown { _ in }
            proxyClients?.shutdownInBackground()
        }
    }

    /// Shuts an owned client down, waiting until its connections are closed (`Transport.shutdown()`).
    /// Does nothing for a wrapped client or when called again.
    ///
    /// Requests still in flight fail (typically with `SwitchyardError.Kind.cancelled`).
    /// - Throws: AsyncHTTPClient's shutdown error, if any.
    public func shutdown() async throws {
        guard ownsClient, !shutdownStarted.exchange(true, ordering: .acquiringAndReleasing) else { return }
        try await proxyClients?.shutdown()
        try await client.shutdown()
    }

    /// Sends one request through AsyncHTTPClient.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The exchange context; its deadline bounds the head and the whole body.
    /// - Returns: The response head with a streaming body (`nil` for HEAD, 204 and 304).
    /// - Throws: A `SwitchyardError`.
    public nonisolated(nonsending) func send(_ request: Request, context: ExchangeContext) async throws -> Response {
        // The synchronous work and the failure path run in functions that are never inlined: inlined,
        // they made this method's async frame over 4 KB, allocated per request.
        let exchange = try prepare(request, context: context)
        defer { if let probe = exchange.probe { connectionObserver?.withdraw(probe) } }
        let response: HTTPClientResponse
        do {
            response = try await exchange.client.execute(exchange.outgoing, deadline: Self.nioDeadline(for: context))
        } catch {
            throw await failure(error, of: exchange, request: request, context: context)
        }
        recordHead(of: response, context: context)
        do {
            return try await makeResponse(response, for: request, context: context, host: request.head.authority ?? "the server")
        } catch {
            recordTotal(context)
            throw error
        }
    }

    /// One request as AsyncHTTPClient takes it: kept across the wait for the head, so it holds no
    /// more than that wait needs (the failure path finds the rest from the request).
    private struct Exchange {
        let outgoing: HTTPClientRequest
        let client: HTTPClient
        let probe: String?
    }

    /// Maps `request` for the wrapped client (or the proxy's), watching its connection when asked.
    @inline(never)
    private func prepare(_ request: Request, context: ExchangeContext) throws -> Exchange {
        try context.checkLiveness()
        if let tlsFailure { throw tlsFailure }
        let decoders = request.options.contentDecoders
        var outgoing = try AsyncHTTPClientRequestMapping.makeRequest(
            request, acceptEncoding: acceptEncoding.map { decoders == .builtIn ? $0 : decoders.acceptEncoding })
        let probe = request.options.publishesConnectionEvents ? connectionObserver?.watch(request, context: context) : nil
        if let probe { outgoing.headers.add(name: AsyncHTTPClientConnectionObserver.probeField, value: probe) }
        let client = proxyClients?.route(request.head, direct: self.client).client ?? self.client
        return Exchange(outgoing: outgoing, client: client, probe: probe)
    }

    /// The error for a request that got no head.
    @inline(never)
    private nonisolated(nonsending) func failure(
        _ error: any Error, of exchange: Exchange, request: Request, context: ExchangeContext
    ) async -> any Error {
        recordTotal(context)
        let host = request.head.authority ?? "the server"
        let proxy = proxyClients?.route(request.head, direct: client).proxy
        if let proxy, let failure = AsyncHTTPClientProxyClients.failure(for: error, proxy: proxy, host: host) {
            return failure
        }
        let mapped = AsyncHTTPClientErrorMapping.error(for: error, phase: .waitingForHead, host: host)
        // The diagnosis connects to the server directly: through a proxy it would reach the wrong peer.
        if proxy == nil, AsyncHTTPClientTLSDiagnosis.isChainVerificationFailure(error) {
            return await AsyncHTTPClientTLSDiagnosis.refine(
                mapped, host: host, url: exchange.outgoing.url, group: exchange.client.eventLoopGroup)
        }
        return mapped
    }

    /// Records when the head arrived and the protocol version.
    @inline(never)
    private func recordHead(of response: HTTPClientResponse, context: ExchangeContext) {
        let headArrived = ContinuousClock.now
        let elapsed = context.attemptStartedAt.duration(to: headArrived)
        let version = HTTPProtocolVersion(major: response.version.major, minor: response.version.minor)
        context.recordTimings { timings in
            timings.firstByte = elapsed
            timings.httpVersion = version
        }
    }

    // MARK: - Response

    @inline(never)
    private nonisolated(nonsending) func makeResponse(
        _ response: HTTPClientResponse, for request: Request, context: ExchangeContext, host: String
    ) async throws -> Response {
        if response.history.count > 1 {
            throw SwitchyardError.transportFailed(
                "The wrapped HTTPClient followed a redirect from \(host)"
                    + " (\(response.history.count - 1) hop(s)); Switchyard transports return redirects to the chain."
                    + " Create the HTTPClient with `redirectConfiguration: .disallow`.")
        }
        var head = try AsyncHTTPClientResponseMapping.head(of: response, host: host)
        let validated = try ResponseHeadRules.validate(head, host: host)
        if contentDecoding == .byClient { head = head.describingDecodedBody() }
        let hasNoBody = !ResponseHeadRules.hasBody(method: request.head.method, status: head.status)
        let length: HTTPBody.Length =
            hasNoBody ? .known(0) : AsyncHTTPClientResponseMapping.bodyLength(of: head, validated: validated)
        var declaredLength: Int64?
        if case .known(let declared) = length { declaredLength = declared }
        let reader = AsyncHTTPClientBodyReader(
            response.body, context: context, limit: request.options.maxResponseBytes,
            declaredLength: declaredLength, host: host, keepAlive: self)
        if hasNoBody {
            // Read the (empty) end of the response so the connection goes back to the pool.
            while try await reader.nextChunk() != nil {}
            return Response(head, body: nil)
        }
        if let limit = request.options.maxResponseBytes, let declared = declaredLength, declared > limit {
            throw TransportFailure.declaredTooLarge(host: host, declared: declared, limit: limit)
        }
        let raw = Response(head, body: HTTPBody(streamingFrom: reader, length: length))
        return contentDecoding == .byTransport
            ? try raw.decodingContent(limit: request.options.maxResponseBytes, decoders: request.options.contentDecoders) : raw
    }

    private func recordTotal(_ context: ExchangeContext) {
        let now = ContinuousClock.now
        let elapsed = context.attemptStartedAt.duration(to: now)
        context.recordTimings { $0.total = elapsed }
    }

    /// AsyncHTTPClient's deadline for the head; the body's deadline is enforced by the body reader.
    private static func nioDeadline(for context: ExchangeContext) -> NIODeadline {
        guard let remaining = context.remainingTime else { return .distantFuture }
        return .now() + TimeAmount(remaining)
    }
}
