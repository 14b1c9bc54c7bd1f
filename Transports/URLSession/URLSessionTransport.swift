import HTTPTypes
public import SwitchyardCore
public import SwitchyardTransportKit

#if canImport(FoundationNetworking)
public import FoundationNetworking
import Foundation
#else
public import Foundation
#endif

/// A `Transport` over `URLSession`: FoundationNetworking (libcurl underneath) on Linux,
/// Foundation's own stack on Apple platforms.
///
/// ```swift
/// let transport = URLSessionTransport()                       // its own session, tuned for throughput
/// let client = Client(transport: transport)
/// let response = try await client.send(try Request(url: "https://example.com/"))
///
/// let wrapped = URLSessionTransport(wrapping: appSession)     // reuse what the app configured
/// ```
///
/// Like every transport it never follows redirects, caches, stores or sends cookies, or retries:
/// the chain owns those. `gzip`/`deflate` bodies are decoded by URLSession itself.
///
/// ### The session
///
/// The session it makes (``init(configuration:)``) has no URL cache, no cookie storage, no
/// credential storage, and allows ``Configuration/maxConnectionsPerHost`` connections per host
/// (URLSession's default on Linux is 6, which serialises concurrent requests).
///
/// ``init(wrapping:configuration:)`` wraps a session the app already has:
/// - On Apple platforms its tasks run on that session (sharing its connections, proxy and TLS
///   settings); a per-task delegate refuses redirects, caching and credentials for them.
/// - On Linux corelibs ignores most per-task delegate callbacks (a task with its own delegate on a
///   session without one never completes), so the transport makes its **own** session from a copy
///   of the wrapped session's configuration, with cache, cookies and credentials switched off.
///   Headers, proxies, timeouts and connection limits of that configuration apply; the wrapped
///   session's delegate is never called and its connections are not shared.
///
/// ### Platform differences (Linux, swift-corelibs-foundation)
///
/// - **Resends:** corelibs' libcurl sends a request a second time by itself when a reused connection
///   dies before any response byte, whatever its method. The transport refuses the body rewind it asks
///   for, which fails the exchange, but the second request head has gone out already: such a POST can
///   reach the server twice (never more; `ConnectionLossResendTests`). curl and AsyncHTTPClient send it once.
/// - **Back-pressure:** `URLSessionTask.suspend()` on a running task removes libcurl's handle and
///   restarts the request from the beginning on `resume()`, so it cannot pause a download. Response
///   bytes the reader has not taken yet are kept in memory up to ``Configuration/bufferedBodyBytes``
///   and beyond that in an unlinked temporary file: the download runs at network speed and disk holds
///   what the reader has not consumed. The session's delegate queue is the transport's own
///   (`InlineDelegateQueue`): each callback runs inside libcurl's write callback, so libcurl reads
///   on only once the transport has taken the piece. On Apple platforms the task is suspended
///   instead (true back-pressure).
/// - **Memory of long transfers:** while a body arrives faster than the reader takes it,
///   FoundationNetworking's resident memory grows with the transfer's length (about 20 MiB per GiB)
///   and is given back only when the socket runs dry: for every piece it replaces the task's timeout
///   timer with a new `DispatchSource`, and a cancelled source is freed only once the task's work
///   queue runs, which libdispatch on Linux does not do while libcurl keeps the session's queue busy
///   on a readable socket. The transport can neither release these timers nor stop their creation;
///   curl and AsyncHTTPClient have no such growth. Figures and the trace:
///   `Benchmarks/results/2026-11-27-urlsession-long-transfer-memory.md`.
/// - **Streamed request bodies** cannot be streamed: corelibs reads a body `InputStream` with
///   blocking reads on a work queue that every URLSession in the process shares, and ends the body
///   as soon as no bytes are available. Blocking there for an asynchronous producer stalls all of
///   URLSession and deadlocks once the producer needs a thread that is waiting on that queue (seen in
///   tests). A streamed body is therefore read to its end first (`RequestBodySpool`): into memory
///   up to ``Configuration/bufferedBodyBytes`` and sent with `Content-Length`; beyond that into a
///   temporary file, sent from a file stream with `Transfer-Encoding: chunked` and no
///   `Content-Length`, even when the length is known. corelibs' own file upload
///   (`uploadTask(fromFile:)`) would send the length, but it traps the process (a `try!` on
///   `curl_easy_pause`) when a transfer ends while it waits for the file, as a cancelled or
///   refused upload does; and libcurl sends a stream of known length with both fields. Memory stays
///   bounded; the upload starts once the producer has finished. A server that requires a length
///   for large bodies (`411`) needs a larger ``Configuration/bufferedBodyBytes`` or another transport.
/// - **Header fidelity:** request header names are canonicalised by `URLRequest`
///   (`x-mixed-CASE` → `X-Mixed-Case`), repeated request fields are joined with ",", and the order
///   is not kept. Response fields come from a dictionary: the server's order is lost (fields are
///   sorted by name), repeats are joined with ", " (`Set-Cookie` is split again).
/// - **Added request headers:** `User-Agent: <process> (unknown version) curl/<version>`,
///   `Accept: */*`, `Accept-Language: <locale>`, `Connection: keep-alive` unless the request sets them; `Content-Length: 0` on non-`GET`
///   requests without a body; `Content-Type: application/x-www-form-urlencoded` on a `POST` with a
///   body and no `Content-Type`.
/// - **Content codings:** libcurl decodes bodies itself (corelibs always turns its decoding on):
///   `gzip`, `deflate`, and also `br` and `zstd` even when the request did not accept them. The
///   transport sends the same `Accept-Encoding` as the others (the request's
///   `RequestOptions.contentDecoders`, default `gzip, deflate`), the decoded bytes count against
///   `maxResponseBytes`, and more than three codings are refused; but a compressed stream that
///   stops before its end arrives as a complete body (libcurl 7.88 does not report it), and a
///   compression bomb is decoded further than the limit: libcurl goes on inflating what it reads
///   until the cancellation reaches the session's work queue. The decoded pieces do not pile up
///   (libcurl waits for the delegate, which drops them), but the timers of "Memory of long
///   transfers" do, so a refused bomb costs tens of MiB of resident memory where curl and
///   AsyncHTTPClient stay within a few.
/// - **Proxies:** corelibs never gives libcurl a proxy (it ignores `connectionProxyDictionary`), so
///   libcurl follows the proxy environment variables (`http_proxy`, `https_proxy`, `no_proxy`, …) for
///   every request, even with ``Configuration/proxy`` `nil`; only a ``Configuration/proxy`` equal to
///   `ProxyConfiguration.fromEnvironment()` is honoured, any other fails each request with
///   `SwitchyardError.Kind.transport`.
/// - **TLS:** only the default `TLSOptions` work: the system trust store and full verification;
///   and even their minimum of TLS 1.2 is not enforced on Linux, where libcurl's default applies
///   (Debian 12's OpenSSL 3 still negotiates TLS 1.1 with a server that offers nothing newer; tested).
///   FoundationNetworking has no per-session TLS settings: custom trust roots exist
///   only as the process-wide `URLSessionCertificateAuthorityInfoFile` environment variable (read
///   by every session in the process; `INSECURE_SSL_NO_VERIFY` turns verification off for all of
///   them), server-trust and client-certificate challenges never reach the delegate (so no pinning
///   and no mutual TLS), and a minimum protocol version is not applied. Any other ``Configuration/tls``
///   fails every request with `SwitchyardError.Kind.tls` naming the unsupported options, because
///   a pin that is not checked must never look as if it were. Certificate failures with the defaults
///   (untrusted, expired, wrong host) are reported as on the curl transport, from libcurl's message.
///   On Apple platforms the same limitation applies for now.
/// - **Timings and connection events:** corelibs never reports `URLSessionTaskMetrics` (the delegate
///   is not called); only `TransferTimings.firstByte` and `TransferTimings.total` (measured by the
///   transport) are recorded, and no connection event is published. On Apple platforms the task's
///   last transaction metrics give DNS, connect, TLS, `requestStart`, `newConnections` and the remote
///   address, and a request that asks for connection events gets `connectionOpened` or
///   `connectionReused` and `tlsNegotiated` when the task ends (never `connectionClosed`).
public final class URLSessionTransport: Transport {
    /// Settings of a ``URLSessionTransport``.
    public struct Configuration: Sendable {
        /// The per-host connection limit of sessions this transport makes.
        public static let defaultMaxConnectionsPerHost = 64
        /// The response bytes held in memory per request before pausing (Apple) or spilling to disk (Linux).
        public static let defaultBufferedBodyBytes = 1 << 20
        /// The request timeout given to URLSession when the exchange has no deadline: a backstop
        /// only (on Linux corelibs applies it to the whole transfer, not to idle time).
        public static let defaultBackstopTimeout: Duration = .seconds(7 * 24 * 3600)

        /// Connections per host of a session this transport makes (not of a wrapped session).
        public var maxConnectionsPerHost: Int
        /// Response bytes held in memory per request before the transport pauses or spills.
        public var bufferedBodyBytes: Int
        /// URLSession's own timeout when the exchange has no deadline.
        public var backstopTimeout: Duration
        /// How long the server may send nothing during an exchange before it fails with `timeout`
        /// (`IdleTimeout`); `nil` turns the check off. Enforced by the transport itself, because
        /// corelibs applies URLSession's request timeout to the whole transfer.
        public var idleTimeout: Duration?
        /// The proxies requests go through — **a declared limitation**: FoundationNetworking on
        /// Linux never hands a proxy to libcurl (it ignores `connectionProxyDictionary`; corelibs
        /// leaves `CURLOPT_PROXY` unset), so libcurl reads the proxy environment variables itself,
        /// for every session, even with `nil` here. Only the value the environment gives
        /// (`ProxyConfiguration.fromEnvironment(_:)`, or an equal one) is therefore honoured; any
        /// other fails each request with `SwitchyardError.Kind.transport` before anything is sent,
        /// rather than going direct behind the caller's back. On Apple platforms the system's proxy
        /// settings apply and any non-`nil` value fails the same way.
        public var proxy: ProxyConfiguration? = nil
        /// TLS options. Only the defaults (system trust store, verification on) are supported, and on
        /// Linux their TLS 1.2 minimum is not enforced: any other value fails every request with
        /// `SwitchyardError.Kind.tls` (see "TLS" in ``URLSessionTransport``).
        public var tls: TLSOptions

        /// Creates a configuration.
        /// - Parameters:
        ///   - maxConnectionsPerHost: Connections per host of a session this transport makes.
        ///   - bufferedBodyBytes: Response bytes kept in memory per request.
        ///   - backstopTimeout: URLSession's timeout when there is no deadline.
        ///   - idleTimeout: How long the server may send nothing (`nil`: no limit).
        ///   - tls: The TLS options (only the defaults are supported).
        public init(
            maxConnectionsPerHost: Int = defaultMaxConnectionsPerHost,
            bufferedBodyBytes: Int = defaultBufferedBodyBytes,
            backstopTimeout: Duration = defaultBackstopTimeout,
            idleTimeout: Duration? = IdleTimeout.default,
            tls: TLSOptions = TLSOptions()
        ) {
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.bufferedBodyBytes = bufferedBodyBytes
            self.backstopTimeout = backstopTimeout
            self.idleTimeout = idleTimeout
            self.tls = tls
        }
    }

    /// The settings this transport was created with.
    public let configuration: Configuration
    /// The session requests run on (on Linux, for a wrapped session: the session made from its configuration).
    public let session: URLSession
    private let router: SessionRouter
    private let ownsSession: Bool
    /// Why ``Configuration/proxy`` cannot be honoured, if it cannot.
    private let proxyRefusal: SwitchyardError?
    /// Fails exchanges that see no progress for ``Configuration/idleTimeout`` (`nil` when it is off).
    private let idleWatchdog: IdleWatchdog?
    /// The error every request fails with because ``Configuration/tls`` asks for what URLSession cannot do.
    private let tlsLimitation: SwitchyardError?
    /// Whether ``shutdown()`` invalidated the session. Tasks are created under this lock: a task made
    /// on an invalidated session is a fatal error in FoundationNetworking.
    private let isShutDown = Lock(false)

    /// Creates a transport with its own session, configured for throughput and with URLSession's
    /// cache, cookies and credential storage switched off.
    /// - Parameter configuration: The settings.
    public init(configuration: Configuration = Configuration()) {
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.httpMaximumConnectionsPerHost = configuration.maxConnectionsPerHost
        Self.disablePolicies(of: sessionConfiguration, configuration: configuration)
        self.configuration = configuration
        self.tlsLimitation = URLSessionTLSLimitation.error(for: configuration.tls)
        self.router = SessionRouter()
        self.session = Self.makeSession(sessionConfiguration, router: router)
        self.ownsSession = true
        self.proxyRefusal = Self.proxyRefusal(configuration.proxy)
        self.idleWatchdog = configuration.idleTimeout.map(IdleWatchdog.init(limit:))
    }

    /// Creates a transport that sends through a session the app already has.
    ///
    /// On Linux the transport makes its own session from a copy of `session.configuration` (see the
    /// type's documentation for why); on Apple platforms it uses `session` itself.
    /// - Parameters:
    ///   - session: The app's session.
    ///   - configuration: The settings (``Configuration/maxConnectionsPerHost`` does not apply).
    public init(wrapping session: URLSession, configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.tlsLimitation = URLSessionTLSLimitation.error(for: configuration.tls)
        self.router = SessionRouter()
        self.proxyRefusal = Self.proxyRefusal(configuration.proxy)
        self.idleWatchdog = configuration.idleTimeout.map(IdleWatchdog.init(limit:))
        #if canImport(FoundationNetworking)
        let copy = session.configuration
        Self.disablePolicies(of: copy, configuration: configuration)
        self.session = Self.makeSession(copy, router: router)
        self.ownsSession = true
        #else
        self.session = session
        self.ownsSession = false
        #endif
    }

    deinit {
        if ownsSession, !isShutDown.withLock({ $0 }) { session.invalidateAndCancel() }
    }

    /// Cancels the requests in flight and invalidates the transport's own session (its connections
    /// close once the transport is released); later requests fail with `transportFailed`. Does nothing
    /// for an app's session wrapped on Apple platforms, which stays the app's.
    public func shutdown() async throws {
        guard ownsSession else { return }
        let wasOpen = isShutDown.withLock { shutDown in
            defer { shutDown = true }
            return !shutDown
        }
        if wasOpen { session.invalidateAndCancel() }
    }

    /// Sends one request through URLSession.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The exchange context; its deadline bounds the whole exchange, body included.
    /// - Returns: The response head with a streaming body.
    /// - Throws: A `SwitchyardError`.
    public nonisolated(nonsending) func send(_ request: Request, context: ExchangeContext) async throws -> Response {
        // The synchronous steps are functions of their own, never inlined: inlined, they made this
        // method's async frame 2.4 KB, allocated per request.
        var (urlRequest, exchange) = try prepare(request, context: context)
        var upload: (body: HTTPBody, pipe: RequestBodyPipe)?
        if let body = request.body, body.bufferedBytes == nil {
            upload = try await attachStreamedBody(body, of: request, to: &urlRequest, exchange: exchange, context: context)
        }
        try launch(urlRequest, exchange: exchange, upload: upload, context: context)
        return try await exchange.head()
    }

    /// The request as URLSession takes it, with a buffered body, and the exchange that will track it.
    @inline(never)
    private func prepare(_ request: Request, context: ExchangeContext) throws -> (URLRequest, URLSessionExchange) {
        try context.checkLiveness()
        if let tlsLimitation { throw tlsLimitation }
        if let proxyRefusal { throw proxyRefusal }
        var urlRequest = try RequestMapping.urlRequest(for: request, timeout: backstopSeconds(for: context))
        let exchange = URLSessionExchange(
            request: request, context: context,
            memoryLimit: max(configuration.bufferedBodyBytes, 64 * 1024),
            pausesTask: Self.canPauseTasks)
        if let body = request.body, let bytes = body.bufferedBytes {
            if request.head.method == .get, !bytes.isEmpty { throw Self.getWithBody }
            urlRequest.httpBody = Data(bytes)
        }
        return (urlRequest, exchange)
    }

    /// Attaches a streamed body: spooled (memory or a file) on corelibs, piped on Apple platforms.
    /// - Returns: The body and its pipe, when the body is piped as it is produced.
    @inline(never)
    private nonisolated(nonsending) func attachStreamedBody(
        _ body: HTTPBody, of request: Request, to urlRequest: inout URLRequest, exchange: URLSessionExchange,
        context: ExchangeContext
    ) async throws -> (body: HTTPBody, pipe: RequestBodyPipe)? {
        if request.head.method == .get { throw Self.getWithBody }
        #if canImport(FoundationNetworking)
        switch try await Self.spool(body, context: context, memoryLimit: configuration.bufferedBodyBytes) {
        case .bytes(let data):
            urlRequest.httpBody = data
        case .file(let url):
            // A stream, not `uploadTask(fromFile:)`: corelibs' file source traps the process
            // (`try!` on `curl_easy_pause`) when its read completes after the transfer ended.
            exchange.onEnd { try? FileManager.default.removeItem(at: url) }
            guard let stream = InputStream(url: url) else {
                let error = SwitchyardError.transportFailed("Could not reopen the spooled request body at \(url.path).")
                exchange.fail(error)
                throw error
            }
            urlRequest.httpBodyStream = stream
        }
        return nil
        #else
        let pipe = RequestBodyPipe()
        urlRequest.httpBodyStream = pipe.makeInputStream()
        if case .known(let length) = body.length {
            urlRequest.setValue(String(length), forHTTPHeaderField: "Content-Length")
        }
        return (body, pipe)
        #endif
    }

    /// Creates the task, registers the exchange and starts it (with its body's producer, deadline and
    /// idle watch).
    @inline(never)
    private func launch(
        _ urlRequest: URLRequest, exchange: URLSessionExchange, upload: (body: HTTPBody, pipe: RequestBodyPipe)?,
        context: ExchangeContext
    ) throws {
        let task = try isShutDown.withLock { shutDown -> URLSessionTask in
            if shutDown {
                let error = TransportFailure.shutDown("The URLSession transport")
                exchange.fail(error)  // runs the cleanups: a spooled body's file goes
                throw error
            }
            return session.dataTask(with: urlRequest)
        }
        router.register(exchange, for: task)
        #if !canImport(FoundationNetworking)
        if !ownsSession { task.delegate = router }
        #endif
        if let upload { Self.startProducing(upload.body, into: upload.pipe, for: exchange) }
        if let deadline = context.deadline { Self.startDeadlineTimer(deadline, for: exchange) }
        idleWatchdog?.watch(exchange)
        if exchange.attach(task) { task.resume() }
    }

    // MARK: - Helpers

    /// Whether suspending a running task pauses it (Apple) or restarts the request (corelibs).
    private static let canPauseTasks: Bool = {
        #if canImport(FoundationNetworking)
        return false
        #else
        return true
        #endif
    }()

    private static var getWithBody: SwitchyardError {
        .invalidRequest("URLSession cannot send a body with a GET request; use POST or PUT, or drop the body.")
    }

    private static func disablePolicies(of sessionConfiguration: URLSessionConfiguration, configuration: Configuration) {
        sessionConfiguration.urlCache = nil
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.httpCookieAcceptPolicy = .never
        sessionConfiguration.urlCredentialStorage = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let backstop = seconds(configuration.backstopTimeout)
        sessionConfiguration.timeoutIntervalForRequest = backstop
        sessionConfiguration.timeoutIntervalForResource = backstop
    }

    private static func makeSession(_ configuration: URLSessionConfiguration, router: SessionRouter) -> URLSession {
        #if canImport(FoundationNetworking)
        let queue = InlineDelegateQueue()  // no hand-over per callback; see "Back-pressure" above
        #else
        let queue = OperationQueue()
        #endif
        queue.maxConcurrentOperationCount = 1
        queue.name = "Switchyard.URLSessionTransport"
        return URLSession(configuration: configuration, delegate: router, delegateQueue: queue)
    }

    /// URLSession's own timeout: the deadline plus a second (a backstop behind the transport's own
    /// timer), or the configured backstop without a deadline. Whole seconds: corelibs truncates.
    private func backstopSeconds(for context: ExchangeContext) -> TimeInterval {
        guard let remaining = context.remainingTime else { return Self.seconds(configuration.backstopTimeout) }
        return min(Self.seconds(configuration.backstopTimeout), (Self.seconds(remaining) + 1).rounded(.up))
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return max(1, Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// Collects a streamed body (Linux, see ``RequestBodySpool``), bounded by the deadline.
    private static func spool(
        _ body: HTTPBody, context: ExchangeContext, memoryLimit: Int
    ) async throws -> RequestBodySpool.Spooled {
        try await withDeadline(
            context.deadline,
            timeoutError: .timedOut("The request body was not complete before the deadline.")
        ) {
            try await RequestBodySpool.spool(body, memoryLimit: memoryLimit)
        }
    }

    /// Ends the exchange with ``SwitchyardError/Kind/timeout`` at the deadline.
    private static func startDeadlineTimer(_ deadline: ContinuousClock.Instant, for exchange: URLSessionExchange) {
        let timer = Task {
            try await sleepReleasingTimerOnCancel(until: deadline)
            exchange.fail(.timedOut("\(exchange.host) had not finished the exchange in time."))
        }
        exchange.onEnd { timer.cancel() }
    }

    /// Pulls the streamed request body into the pipe on its own task.
    private static func startProducing(_ body: HTTPBody, into pipe: RequestBodyPipe, for exchange: URLSessionExchange) {
        let producer = Task {
            if let failure = await pipe.fill(from: body) { exchange.fail(failure) }
        }
        exchange.onEnd {
            pipe.fail(.cancelled)
            producer.cancel()
        }
    }
}
