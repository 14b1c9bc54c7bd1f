public import SwitchyardCore
public import SwitchyardTransportKit

/// A `Transport` over libcurl's multi interface.
///
/// One transport owns one multi handle, driven by one dedicated thread (no thread per request);
/// easy handles are reused and connections kept alive across requests. Response bodies stream
/// with back-pressure: when the reader falls behind, libcurl pauses the socket. Cancelling the
/// calling task (or dropping a streamed body) removes the transfer on the loop's next turn,
/// which closes its connection.
///
/// ```swift
/// let transport = CurlTransport()
/// let client = Client(transport: transport)
/// let response = try await client.send(try Request(url: "https://example.com/"))
/// ```
///
/// Like every transport, it never follows redirects, stores cookies, caches or retries: the chain
/// owns those (libcurl's own resends are described below). TLS peers are verified against the system store unless ``Configuration/tls`` says
/// otherwise (custom CAs, pins, a client certificate, a minimum version; see `TLSOptions`).
/// Content-Encoding `gzip` and `deflate` are decoded (``Configuration/decodesContentEncoding``).
/// Requests go direct unless ``Configuration/proxy`` is set: unlike libcurl's default, the proxy
/// environment variables are not read unless asked for (`ProxyConfiguration.fromEnvironment()`).
///
/// ### libcurl's own resends
///
/// libcurl 7.88 sends a request again by itself, on a new connection and whatever its method, when
/// - the server refuses its HTTP/2 stream (`REFUSED_STREAM`): the server did not process it; after 5
///   such resends the transfer fails with `SwitchyardError.Kind.connectionFailed`;
/// - a *reused* connection dies before any byte of the response arrives, although the server may have
///   processed the request.
///
/// The transport lets those resends happen only for requests that are safe to repeat (GET, HEAD,
/// OPTIONS, PUT, DELETE, TRACE, or an `Idempotency-Key`). For any other request a callback before each
/// send aborts the second one: the request fails with `SwitchyardError.Kind.connectionFailed`
/// (`TransportFailure.notResentAfterConnectionLoss(host:method:)`) and the server sees it once
/// (`ConnectionLossResendTests`). libcurl does not say which of the two causes it was, so a POST whose
/// HTTP/2 stream was refused fails the same way on this transport (AsyncHTTPClient reports it as
/// `SwitchyardError.requestWasNotProcessed` and the retry link sends it again).
///
/// An in-memory body is rewound for the resend; a streamed body cannot be, and the transfer fails
/// instead (`TransportFailure.bodyNotReplayable(host:underlyingError:)`). A stream above the
/// last-stream-id of the server's `GOAWAY` is not resent by libcurl: it ends with `CURLE_HTTP2` (no
/// message), mapped to `SwitchyardError.Kind.connectionFailed` without
/// `SwitchyardError.requestWasNotProcessed`, because the same code follows a reset after a `GOAWAY`
/// that included the stream. A stream reset (`RST_STREAM`) is `SwitchyardError.Kind.connectionFailed`.
///
/// ### Timings and connection events
///
/// Every field of `TransferTimings` comes from libcurl, for the current attempt: the phases from
/// `CURLINFO_*_TIME_T` (curl's `time_namelookup` … `time_total`), `newConnections` from
/// `CURLINFO_NUM_CONNECTS`, the remote address from `CURLINFO_PRIMARY_IP`/`_PORT`. A request with
/// `RequestOptions.publishesConnectionEvents` also gets `ConnectionOpened` or `ConnectionReused`,
/// `TLSNegotiated` (the TLS version and ALPN protocol read from libcurl's OpenSSL session; `nil` with
/// another TLS backend) before its response head, and `ConnectionClosed` when libcurl closes the
/// connection (`CURLOPT_CLOSESOCKETFUNCTION`). A request that does not ask costs nothing more.
public final class CurlTransport: Transport {
    /// Settings of a ``CurlTransport``.
    public struct Configuration: Sendable {
        /// The `Accept-Encoding` sent when the request has none and decoding is on.
        public static let defaultAcceptEncoding = "gzip, deflate"

        /// Which HTTP versions to negotiate.
        public enum HTTPVersion: Sendable {
            /// HTTP/2 over TLS when the server offers it, HTTP/1.1 otherwise.
            case automatic
            /// Always HTTP/1.1.
            case http1_1
        }

        /// Connections per host; requests beyond it wait in libcurl's queue (their deadline still runs).
        /// `0` means unlimited.
        public var maxConnectionsPerHost: Int
        /// Connections in total; `0` means unlimited.
        public var maxTotalConnections: Int
        /// How long establishing a connection may take, independently of the request's deadline.
        public var connectTimeout: Duration
        /// TLS: trusted CAs, pinned keys, client certificate, minimum version, and (development only)
        /// skipping verification. Default: verify against the system store, TLS 1.2 or later.
        ///
        /// Custom CAs are read once, when the transport starts (`CURLOPT_CAINFO_BLOB`); pins become
        /// `CURLOPT_PINNEDPUBLICKEY` (checked after the handshake, before the request is sent); the
        /// client certificate and key are `CURLOPT_SSLCERT`/`CURLOPT_SSLKEY` (PEM); the minimum version
        /// is `CURLOPT_SSLVERSION`. A file that cannot be read fails every request with `tls`.
        public var tls: TLSOptions
        /// Whether TLS certificates and host names are verified: `false` exactly when ``tls`` is
        /// `TLSOptions.insecureSkippingVerificationForDevelopmentOnly`. Setting it to `false` replaces
        /// ``tls`` with that value; setting it to `true` restores the default verification.
        @available(*, deprecated, message: "Use tls = .insecureSkippingVerificationForDevelopmentOnly (or the default TLSOptions).")
        public var verifiesPeer: Bool {
            get { !tls.skipsVerification }
            set {
                guard newValue == tls.skipsVerification else { return }
                tls = newValue ? TLSOptions() : Self.skippingVerification(keeping: tls)
            }
        }

        /// `options` with verification skipped; everything else is kept, so pins configured alongside
        /// still fail every request (``TLSOptions/inconsistency``) instead of being dropped unseen.
        private static func skippingVerification(keeping options: TLSOptions) -> TLSOptions {
            var insecure = TLSOptions.insecureSkippingVerificationForDevelopmentOnly
            insecure.trustRoots = options.trustRoots
            insecure.pinnedPublicKeys = options.pinnedPublicKeys
            insecure.clientCertificate = options.clientCertificate
            insecure.minimumVersion = options.minimumVersion
            return insecure
        }
        /// Whether `gzip`/`deflate` response bodies are decoded before they reach the chain.
        public var decodesContentEncoding: Bool
        /// The HTTP version policy.
        public var httpVersion: HTTPVersion
        /// How many body bytes are buffered per transfer before libcurl pauses the socket.
        public var receiveBufferBytes: Int
        /// How many idle easy handles are kept for reuse.
        public var idleHandleLimit: Int
        /// How many idle keep-alive connections are kept open for reuse. libcurl's own default ties
        /// this to the number of transfers in flight at the moment, so after a lull it would close
        /// connections that the next burst then has to reopen.
        public var maxIdleConnections: Int
        /// How long the event-loop thread keeps polling without sleeping after it ran out of work.
        /// A request or response arriving within it is picked up without the two context switches of
        /// a sleep and a wake-up (at concurrency 1 on loopback this halves the median latency), for
        /// at most this much CPU time per idle moment. The window adapts: after a poll that found
        /// nothing the next one is shorter (down to an eighth). `.zero` sleeps at once.
        public var busyPollDuration: Duration
        /// Busy-polling happens only while at most this many transfers are in flight (no limit by
        /// default). A limit gives the CPU of the polling back to the tasks that consume the responses
        /// and, on a small machine, to the server; on a 2-core loopback run (2026-11-23) polling still
        /// paid at 16 and 64 in flight, because each sleep costs a wake-up system call by the
        /// submitting task and two context switches.
        public var busyPollMaxInFlight: Int
        /// How long the server may send nothing before the exchange fails with `timeout`
        /// (`IdleTimeout`); `nil` turns the check off. Whole seconds (libcurl's low-speed check);
        /// a transfer paused because its reader is slow is not idle.
        public var idleTimeout: Duration?
        /// The proxies requests go through (`ProxyConfiguration`); `nil` (the default): every
        /// request goes direct, and libcurl is told not to read `http_proxy` and the like from the
        /// environment (use `ProxyConfiguration.fromEnvironment(_:)` for that).
        public var proxy: ProxyConfiguration? = nil

        /// Creates a configuration.
        /// - Parameters:
        ///   - maxConnectionsPerHost: Connections per host (`0`: unlimited).
        ///   - maxTotalConnections: Connections in total (`0`: unlimited).
        ///   - connectTimeout: Limit for establishing a connection.
        ///   - verifiesPeer: Whether TLS peers are verified; `false` overrides `tls` with
        ///     `TLSOptions.insecureSkippingVerificationForDevelopmentOnly` (kept for source compatibility).
        ///   - decodesContentEncoding: Whether gzip/deflate bodies are decoded.
        ///   - httpVersion: The HTTP version policy.
        ///   - receiveBufferBytes: Body bytes buffered per transfer before pausing.
        ///   - idleHandleLimit: Idle easy handles kept for reuse.
        ///   - maxIdleConnections: Idle keep-alive connections kept open for reuse.
        ///   - busyPollDuration: How long the loop polls without sleeping once idle.
        ///   - busyPollMaxInFlight: The most transfers in flight at which the loop still busy-polls.
        ///   - idleTimeout: How long the server may send nothing (`nil`: no limit).
        ///   - tls: The TLS options.
        public init(
            maxConnectionsPerHost: Int = 0,
            maxTotalConnections: Int = 0,
            connectTimeout: Duration = .seconds(30),
            verifiesPeer: Bool = true,
            decodesContentEncoding: Bool = true,
            httpVersion: HTTPVersion = .automatic,
            receiveBufferBytes: Int = 256 * 1024,
            idleHandleLimit: Int = 256,
            maxIdleConnections: Int = 256,
            busyPollDuration: Duration = .microseconds(200),
            busyPollMaxInFlight: Int = .max,
            idleTimeout: Duration? = IdleTimeout.default,
            tls: TLSOptions = TLSOptions()
        ) {
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.maxTotalConnections = maxTotalConnections
            self.connectTimeout = connectTimeout
            self.tls = verifiesPeer ? tls : Self.skippingVerification(keeping: tls)
            self.decodesContentEncoding = decodesContentEncoding
            self.httpVersion = httpVersion
            self.receiveBufferBytes = receiveBufferBytes
            self.idleHandleLimit = idleHandleLimit
            self.maxIdleConnections = maxIdleConnections
            self.busyPollDuration = busyPollDuration
            self.busyPollMaxInFlight = busyPollMaxInFlight
            self.idleTimeout = idleTimeout
        }
    }

    /// The settings this transport was created with.
    public let configuration: Configuration
    private let loop: CurlEventLoop

    /// Creates a transport and starts its event-loop thread.
    /// - Parameter configuration: The settings.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.loop = CurlEventLoop(configuration: configuration)
    }

    deinit {
        loop.submit(.shutdown)
    }

    /// The event-loop thread as a task executor: the transport-executor mode. Tasks that prefer it
    /// run their chain and read their responses on that thread, between libcurl calls, so a request
    /// costs no hand-off between threads (no wake-up of a pool thread per response).
    ///
    /// What it keeps, each tested (`CurlTaskExecutorTests`): cancelling such a task fails its request
    /// with `cancelled` and closes the connection; a request's deadline ends it with `timeout` and
    /// closes the connection; jobs and libcurl's work take turns, so a task that only yields never
    /// starves the transfers; jobs that arrive after ``shutdown()`` run on the global concurrent
    /// executor and their requests fail typed. What it costs: everything in those tasks shares one
    /// thread, so code in them must not block (while it runs, no transfer of this transport moves),
    /// and at 16 or 64 requests in flight one thread does the work the default spreads over two
    /// (`Benchmarks/compare.sh` measures both: `curl bare, on loop` beside `curl bare`; figures in
    /// `Benchmarks/results/`).
    ///
    /// ```swift
    /// let transport = CurlTransport()
    /// let client = Client(transport: transport)
    /// try await withTaskExecutorPreference(transport.taskExecutor) {
    ///     let response = try await client.send(try Request(url: "http://127.0.0.1:8080/"))
    /// }
    /// ```
    public var taskExecutor: (any TaskExecutor)? { loop }

    /// Fails the requests in flight, closes every connection and stops the event-loop thread;
    /// returns once libcurl has cleaned up. Requests sent afterwards fail with `transportFailed`.
    public func shutdown() async throws {
        await loop.shutdown()
    }

    /// Sends one request through libcurl.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The exchange context; its deadline bounds the whole transfer.
    /// - Returns: The response head with a streaming body.
    /// - Throws: A `SwitchyardError`.
    public nonisolated(nonsending) func send(_ request: Request, context: ExchangeContext) async throws -> Response {
        try await makeTransfer(for: request, context: context).start()
    }

    /// The transfer for `request`, with its streamed body's producer started. Synchronous and never
    /// inlined, so what it builds (the URL, the header list) is not kept in the async frame of
    /// ``send(_:context:)`` for the whole exchange.
    @inline(never)
    private func makeTransfer(for request: Request, context: ExchangeContext) -> CurlTransfer {
        var upload: CurlUploadPump?
        if let body = request.body, body.bufferedBytes == nil {
            upload = CurlUploadPump()
        }
        let transfer = CurlTransfer(
            request: request, context: context, upload: upload, loop: loop,
            highWaterBytes: configuration.receiveBufferBytes,
            decodesContentEncoding: configuration.decodesContentEncoding)
        if let upload, let body = request.body {
            startProducing(body, into: upload, for: transfer)
        }
        return transfer
    }

    /// Pulls the streamed request body into the upload pump on its own task, so the body's
    /// producer is never run on the event-loop thread.
    private func startProducing(_ body: HTTPBody, into upload: CurlUploadPump, for transfer: CurlTransfer) {
        let loop = self.loop
        Task {
            if let failure = await upload.pump.fill(from: body, wakeReader: { loop.submit(.unpause(transfer)) }) {
                transfer.cancel(failure)
            }
        }
    }
}
