import CCurl
import HTTPTypes
import SwitchyardCore
import SwitchyardTransportKit

/// The event-loop side of one easy handle and the transfer it is currently running: the handle's
/// options, its callbacks and the framing of what libcurl delivers. Confined to the event-loop
/// thread; never shared.
///
/// One object lives as long as its handle and serves one transfer after another, so starting a
/// transfer allocates nothing here: the options that are the same for every transfer of the
/// transport (callbacks, their user data, timeouts, TLS, HTTP version) are set once, and a plain
/// `GET` without a body that follows another one on the same handle sets only what differs per
/// request (URL when it changed, header list, deadline, size limit). Any other request shape, or
/// any transfer that did not end cleanly (failed, cancelled, paused, uploaded), resets the handle
/// and configures it from scratch before its next use.
final class CurlEasyTransfer {
    /// The request shapes a configured handle can serve again without `curl_easy_reset`.
    private enum Shape { case plainGet }

    let handle: CurlEasyHandle
    /// The transfer being run, `nil` while the handle is idle (so an idle handle keeps nothing alive).
    private(set) var transfer: CurlTransfer?
    /// This handle's index in the loop's list of active handles; `nil` while idle.
    var activeSlot: Int?
    private let configuration: CurlTransport.Configuration
    private let tls: CurlTLSSetup
    /// Unchecked for overlapping access: the object never leaves the loop thread, and the framer's
    /// one mutation (`consume`, once per header line) calls nothing that could reach it again. The
    /// run-time check was 7 of the 17 exclusivity checks a request through this transport made.
    @exclusivity(unchecked) private var framer = CurlHeadFramer()
    private var headDelivered = false
    private var receivedBytes: Int64 = 0
    private var maxResponseBytes: Int64?
    private var memoryUpload: ArraySlice<UInt8>?
    private var memoryUploadOffset = 0
    /// Who is told the bytes of the body sent so far (`nil`: no progress callback is armed).
    private var sentBytesObserver: SentBytesObserver?
    private var reportedSentBytes: Int64 = 0
    /// A failure detected inside a callback, which then told libcurl to abort.
    private(set) var callbackFailure: SwitchyardError?
    /// How often libcurl started sending the current request (see ``guardAgainstResends(of:)``).
    private var sendsStarted = 0
    /// A complete head block, not yet handed to the caller; see ``flushHead()``.
    private var readyHead: [UInt8]?
    /// Whether the current transfer's timings were read from libcurl yet (when its head is handed
    /// over, or at its end if that comes first: a small response is read once, not twice).
    private var timingsRecorded = false
    private let onHeadReady: (CurlEasyTransfer) -> Void
    /// What the handle is configured for; `nil` after a reset (or before the first transfer).
    private var shape: Shape?
    /// The URL libcurl holds for this handle, so an unchanged URL is not copied and set again.
    private var configuredURL: CurlURL?
    /// Whether the last transfer left state behind that only `curl_easy_reset` clears.
    private var needsReset = false
    /// The proxy route libcurl holds for this handle (`nil`: direct, or not configured yet).
    private var proxyRoute: CurlProxyRoute?
    /// The proxy the current transfer goes through, for its error messages.
    private var activeProxy: ProxyServer?
    /// The transport's watched connections (shared by every handle of the loop).
    private let connections: CurlConnectionRegistry
    /// Whether the current transfer asked for connection events (`RequestOptions.publishesConnectionEvents`).
    private var watchesConnection = false
    /// Whether the current transfer's connection events were published (at its head, or at its end without one).
    private var connectionEventsPublished = false
    /// The sockets libcurl created for the current, watched transfer.
    private var createdSockets: [curl_socket_t] = []

    /// - Parameter onHeadReady: Called (on the loop thread) when a head is complete; the loop then
    ///   calls ``flushHead()`` after the current `curl_multi_perform` pass.
    init(
        handle: CurlEasyHandle, configuration: CurlTransport.Configuration, tls: CurlTLSSetup,
        connections: CurlConnectionRegistry, onHeadReady: @escaping (CurlEasyTransfer) -> Void
    ) {
        self.handle = handle
        self.configuration = configuration
        self.tls = tls
        self.connections = connections
        self.onHeadReady = onHeadReady
    }

    // MARK: - Configuration

    /// Takes on `transfer` and applies its request to the handle.
    func begin(_ transfer: CurlTransfer) throws(SwitchyardError) {
        if let failure = tls.failure { throw failure }
        self.transfer = transfer
        framer = CurlHeadFramer()
        headDelivered = false
        receivedBytes = 0
        callbackFailure = nil
        readyHead = nil
        timingsRecorded = false
        memoryUpload = nil
        memoryUploadOffset = 0
        sentBytesObserver = nil
        // One reference to the transfer's request, context and lines (a copy of the request would
        // retain each of its parts).
        let driver = transfer.driver
        maxResponseBytes = driver.request.options.maxResponseBytes
        handle.errorBuffer[0] = 0

        let plainGet = driver.request.head.method == .get && driver.request.body == nil
        if needsReset || shape == nil || !(plainGet && shape == .plainGet) {
            resetHandle()
        }
        let easy = handle.raw
        if configuredURL != driver.lines.url {
            configuredURL = nil
            try check(driver.lines.url.set(on: easy), "URL")
            configuredURL = driver.lines.url
            // HTTPS with HTTP/2 allowed: a request started while a connection to its host is being set up
            // waits to learn whether that connection multiplexes instead of opening its own. Never for
            // plain HTTP, where it would queue concurrent requests behind one HTTP/1.1 connection.
            let waitsForMultiplexing = configuration.httpVersion == .automatic && driver.lines.url.isHTTPS
            _ = ccurl_easy_setopt_long(easy, CURLOPT_PIPEWAIT, waitsForMultiplexing ? 1 : 0)
        }
        if let proxies = configuration.proxy { applyProxy(proxies, to: driver.request) }
        // 0 turns either limit off, so a value left by the previous transfer never lingers.
        let timeout = driver.context.remainingTime.map { max(1, Self.milliseconds($0)) } ?? 0
        _ = ccurl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, timeout)
        _ = ccurl_easy_setopt_off_t(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(maxResponseBytes ?? 0))
        _ = ccurl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, driver.lines.headers)
        if plainGet {
            if shape == nil {
                _ = ccurl_easy_setopt_long(easy, CURLOPT_HTTPGET, 1)
                shape = .plainGet
            }
        } else {
            needsReset = true  // the next transfer starts from a reset handle
            try configureMethodAndBody(driver.request, transfer: transfer)
        }
        watchesConnection = driver.request.options.publishesConnectionEvents
        connectionEventsPublished = false
        if watchesConnection { watchSockets() }
    }

    /// Arms `CURLOPT_SOCKOPTFUNCTION`, so the registry learns the sockets libcurl creates for this
    /// transfer; the handle is reset before its next transfer, which disarms it again.
    private func watchSockets() {
        let easy = handle.raw
        needsReset = true
        createdSockets.removeAll(keepingCapacity: true)
        _ = ccurl_easy_setopt_sockopt_callback(easy, curlSockoptCallback)
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_SOCKOPTDATA, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Releases the finished transfer; the handle is idle until the next ``begin(_:)``.
    /// - Parameter cleanly: Whether the transfer completed normally (no failure, cancellation or pause),
    ///   so the handle's state can serve the next transfer without a reset.
    func end(cleanly: Bool) {
        if !cleanly { needsReset = true }
        transfer = nil
        memoryUpload = nil
        readyHead = nil
        framer = CurlHeadFramer()  // an unfinished head's bytes are not kept while idle
    }

    /// Clears every option and sets the ones every transfer of this transport shares.
    private func resetHandle() {
        let easy = handle.raw
        curl_easy_reset(easy)
        needsReset = false
        shape = nil
        configuredURL = nil
        _ = ccurl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = ccurl_easy_setopt_long(easy, CURLOPT_PATH_AS_IS, 1)
        _ = ccurl_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0)
        tls.apply(to: easy)
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, handle.errorBuffer)
        // Never read the proxy environment variables behind the configuration's back ("" = direct).
        _ = ccurl_easy_setopt_string(easy, CURLOPT_PROXY, "")
        proxyRoute = nil
        if configuration.httpVersion == .http1_1 {
            _ = ccurl_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        } else {
            // HTTP/2 where TLS negotiates it (`CURLOPT_PIPEWAIT` is set with the URL).
            _ = ccurl_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        }
        _ = ccurl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(configuration.connectTimeout))
        if let idle = configuration.idleTimeout {
            // Fewer than 1 byte per second over the whole window: nothing arrived for that long.
            _ = ccurl_easy_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, 1)
            _ = ccurl_easy_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, IdleTimeout.wholeSeconds(idle))
        }
        // The callbacks' user data is this object, which lives as long as the handle.
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        _ = ccurl_easy_setopt_write_callback(easy, CURLOPT_HEADERFUNCTION, curlHeaderCallback)
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, userdata)
        _ = ccurl_easy_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION, curlWriteCallback)
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, userdata)
        // The handle leads back to this object when libcurl reports it done (`CURLINFO_PRIVATE`).
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_PRIVATE, userdata)
        // Every connection reports its closing to the registry (which lives as long as the multi
        // handle, unlike this handle): a connection keeps the function of the handle that opened it.
        _ = ccurl_easy_setopt_closesocket_callback(easy, curlCloseSocketCallback)
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_CLOSESOCKETDATA, Unmanaged.passUnretained(connections).toOpaque())
    }

    /// Points the handle at the proxy `request` goes through (or none), when that changed.
    private func applyProxy(_ proxies: ProxyConfiguration, to request: Request) {
        let server = proxies.proxy(forScheme: request.head.scheme, authority: request.head.authority)
        activeProxy = server
        let route = server.map { CurlProxyRoute(server: $0, tunnels: proxies.tunnels(scheme: request.head.scheme)) }
        guard route != proxyRoute else { return }
        let easy = handle.raw
        proxyRoute = route
        _ = ccurl_easy_setopt_string(easy, CURLOPT_PROXY, route?.server.urlWithoutCredentials ?? "")
        if let credentials = route?.server.credentials {
            _ = ccurl_easy_setopt_string(easy, CURLOPT_PROXYUSERNAME, credentials.user)
            _ = ccurl_easy_setopt_string(easy, CURLOPT_PROXYPASSWORD, credentials.password)
        } else {
            _ = ccurl_easy_setopt_pointer(easy, CURLOPT_PROXYUSERNAME, nil)
            _ = ccurl_easy_setopt_pointer(easy, CURLOPT_PROXYPASSWORD, nil)
        }
        _ = ccurl_easy_setopt_long(easy, CURLOPT_HTTPPROXYTUNNEL, route?.tunnels == true ? 1 : 0)
        // The proxy's own `200 Connection established` head is not the response.
        _ = ccurl_easy_setopt_long(easy, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
    }

    private func configureMethodAndBody(_ request: Request, transfer: CurlTransfer) throws(SwitchyardError) {
        let easy = handle.raw
        let method = request.head.method
        var body = request.body
        if body == nil, [.post, .put, .patch].contains(method) { body = HTTPBody([]) }

        guard let body else {
            if method == .head {
                _ = ccurl_easy_setopt_long(easy, CURLOPT_NOBODY, 1)
            } else {
                _ = ccurl_easy_setopt_long(easy, CURLOPT_HTTPGET, 1)
                if method != .get { _ = ccurl_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method.rawValue) }
            }
            return
        }
        _ = ccurl_easy_setopt_long(easy, CURLOPT_POST, 1)
        if method != .post { _ = ccurl_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method.rawValue) }
        var size: Int64 = -1
        if case .known(let count) = body.length { size = count }
        if size < 0, let declared = request.head.headerFields[.contentLength], let count = Int64(declared) {
            size = count
        }
        _ = ccurl_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(size))
        if let bytes = body.bufferedBytes {
            memoryUpload = bytes
        } else if transfer.driver.upload == nil {
            throw .invalidRequest("The request body stream could not be attached.")
        }
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        _ = ccurl_easy_setopt_read_callback(easy, curlReadCallback)
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_READDATA, userdata)
        _ = ccurl_easy_setopt_seek_callback(easy, curlSeekCallback)
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_SEEKDATA, userdata)
        if let observer = request.options.sentBytesObserver { observeSentBytes(observer) }
        guardAgainstResends(of: request)
    }

    /// Arms libcurl's progress callback, whose `ulnow` is the count of body bytes handed to the
    /// socket; the handle is reset after any transfer with a body, which disarms it again.
    private func observeSentBytes(_ observer: SentBytesObserver) {
        let easy = handle.raw
        sentBytesObserver = observer
        reportedSentBytes = 0
        _ = ccurl_easy_setopt_long(easy, CURLOPT_NOPROGRESS, 0)
        _ = ccurl_easy_setopt_xferinfo_callback(easy, curlProgressCallback)
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_XFERINFODATA, Unmanaged.passUnretained(self).toOpaque())
    }

    /// libcurl sends a request again by itself when a reused connection dies before any response byte,
    /// whatever its method, although the server may have processed it. For a request that is not safe
    /// to repeat (a method that is not idempotent, without an `Idempotency-Key`), a callback before each
    /// send lets the first one through and aborts any other. Safe requests, and every plain GET, go
    /// without the callback.
    private func guardAgainstResends(of request: Request) {
        guard !Self.isSafeToRepeat(request.head) else { return }
        let easy = handle.raw
        sendsStarted = 0
        _ = ccurl_easy_setopt_prereq_callback(easy, curlPrereqCallback)
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_PREREQDATA, Unmanaged.passUnretained(self).toOpaque())
    }

    /// RFC 9110's idempotent methods (`RetryPolicy.defaultIdempotentMethods`, matched without hashing on
    /// this per-request path), or a request carrying an `Idempotency-Key`.
    static func isSafeToRepeat(_ head: HTTPRequest) -> Bool {
        switch head.method {
        case .get, .head, .options, .put, .delete, .trace: true
        default: head.headerFields.containsField(named: .idempotencyKey)
        }
    }

    /// Called by libcurl before each send of the transfer's request: `false` aborts the transfer.
    func requestWillBeSent() -> Bool {
        sendsStarted += 1
        guard sendsStarted > 1, let transfer else { return true }
        let head = transfer.driver.request.head
        callbackFailure = TransportFailure.notResentAfterConnectionLoss(
            host: head.authority ?? "the server",
            method: head.method.rawValue)
        return false
    }

    private func check(_ code: CURLcode, _ what: String) throws(SwitchyardError) {
        guard code == CURLE_OK else {
            throw .invalidRequest("libcurl refused the request's \(what): \(String(cString: curl_easy_strerror(code))).")
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(clamping: seconds) &* 1_000 &+ Int(attoseconds / 1_000_000_000_000_000)
    }

    // MARK: - Callbacks (event-loop thread)

    fileprivate func didReceiveHeaderLine(_ line: UnsafeRawBufferPointer) -> Int {
        guard transfer != nil else { return 0 }
        guard !headDelivered else { return line.count }  // trailers: ignored
        let block: [UInt8]?
        do throws(CurlHeadFramer.Overflow) {
            block = try framer.consume(line)
        } catch {
            callbackFailure = error.error(host: transfer?.driver.host ?? "the server")
            return 0
        }
        if let block {
            if let activeProxy, CurlProxyRoute.isProxyAuthenticationRequired(block) {
                // A forwarding proxy's 407 fails the request, as a refused CONNECT does.
                callbackFailure = ProxyFailure.authenticationRequired(
                    proxy: activeProxy, host: transfer?.driver.host ?? "the server")
                return 0
            }
            headDelivered = true
            if watchesConnection {
                recordTimings(final: false)
                publishConnectionEvents()
            }
            readyHead = block
            onHeadReady(self)
        }
        return line.count
    }

    fileprivate func didReceiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let transfer else { return 0 }
        if let maxResponseBytes, receivedBytes + Int64(bytes.count) > maxResponseBytes {
            callbackFailure = .responseTooLarge(limit: maxResponseBytes)
            return 0
        }
        switch transfer.deliverChunk(bytes) {
        case .accepted:
            receivedBytes += Int64(bytes.count)
            return bytes.count
        case .pause:
            needsReset = true  // a paused handle is reset before it serves another transfer
            return ccurl_write_pause()
        case .abort:
            callbackFailure = .cancelled
            return 0
        }
    }

    fileprivate func readUploadBytes(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        if let memoryUpload {
            let count = min(buffer.count, memoryUpload.count - memoryUploadOffset)
            let start = memoryUpload.startIndex + memoryUploadOffset
            UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
                .copyBytes(from: memoryUpload[start..<start + count])
            memoryUploadOffset += count
            return count
        }
        guard let upload = transfer?.driver.upload else { return 0 }
        switch upload.read(into: buffer) {
        case .bytes(let count): return count
        case .pause: return ccurl_read_pause()
        case .end: return 0
        case .abort: return ccurl_read_abort()
        }
    }

    /// Reports a changed count of uploaded bytes to the observer.
    fileprivate func didProgress(uploaded: curl_off_t) {
        guard let sentBytesObserver, Int64(uploaded) != reportedSentBytes else { return }
        reportedSentBytes = Int64(uploaded)
        sentBytesObserver.sent(reportedSentBytes)
    }

    /// Rewinds an in-memory body when libcurl must resend it (e.g. on a fresh connection after a
    /// reused one turned out closed). A streamed body cannot rewind, so libcurl fails instead of
    /// sending a partial body.
    fileprivate func seekUpload(to offset: curl_off_t, origin: Int32) -> Int32 {
        guard let memoryUpload, origin == SEEK_SET, offset >= 0, offset <= memoryUpload.count else {
            return CURL_SEEKFUNC_CANTSEEK
        }
        memoryUploadOffset = Int(offset)
        return CURL_SEEKFUNC_OK
    }

    // MARK: - Completion

    /// Copies libcurl's phase timings into the exchange context: the current attempt's, replacing
    /// any an earlier attempt left (a phase libcurl reports as zero, such as `connect` on a reused
    /// connection, is `nil`).
    func recordTimings(final: Bool) {
        guard let transfer else { return }
        let easy = handle.raw
        func phase(_ info: CURLINFO) -> Duration? {
            var microseconds: curl_off_t = 0
            guard ccurl_easy_getinfo_off_t(easy, info, &microseconds) == CURLE_OK, microseconds > 0 else { return nil }
            return .microseconds(Int64(microseconds))
        }
        let dns = phase(CURLINFO_NAMELOOKUP_TIME_T)
        let connect = phase(CURLINFO_CONNECT_TIME_T)
        let tls = phase(CURLINFO_APPCONNECT_TIME_T)
        let requestStart = phase(CURLINFO_PRETRANSFER_TIME_T)
        let firstByte = phase(CURLINFO_STARTTRANSFER_TIME_T)
        let total = final ? phase(CURLINFO_TOTAL_TIME_T) : nil
        var version = 0
        _ = ccurl_easy_getinfo_long(easy, CURLINFO_HTTP_VERSION, &version)
        let httpVersion: HTTPProtocolVersion? =
            switch version {
            case Int(CURL_HTTP_VERSION_1_0): .http1_0
            case Int(CURL_HTTP_VERSION_1_1): .http1_1
            case Int(CURL_HTTP_VERSION_2_0): .http2
            case Int(CURL_HTTP_VERSION_3): .http3
            default: nil
            }
        var connects = 0
        _ = ccurl_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connects)
        // Read once per transfer: with the first timings read.
        let readsEndpoint = !timingsRecorded
        timingsRecorded = true
        let (remoteAddress, remotePort) = readsEndpoint ? remoteEndpoint() : (nil, nil)
        transfer.driver.context.recordTimings { timings in
            timings.httpVersion = httpVersion
            timings.dns = dns
            timings.connect = connect
            timings.tls = tls
            timings.requestStart = requestStart
            timings.firstByte = firstByte
            timings.newConnections = connects
            if readsEndpoint {
                timings.remoteAddress = remoteAddress
                timings.remotePort = remotePort
            }
            if final { timings.total = total ?? firstByte }
        }
    }

    /// The IP address and port the transfer went to (`CURLINFO_PRIMARY_IP`/`_PORT`), `nil` before
    /// any connection was made.
    private func remoteEndpoint() -> (address: String?, port: Int?) {
        let easy = handle.raw
        var pointer: UnsafeMutablePointer<CChar>?
        guard ccurl_easy_getinfo_string(easy, CURLINFO_PRIMARY_IP, &pointer) == CURLE_OK, let pointer, pointer.pointee != 0
        else { return (nil, nil) }
        var port = 0
        _ = ccurl_easy_getinfo_long(easy, CURLINFO_PRIMARY_PORT, &port)
        return (String(cString: pointer), port)
    }

    // MARK: - Connection events

    /// Called (when the transfer is watched) with each socket libcurl creates for it.
    fileprivate func didCreateSocket(_ socket: curl_socket_t) {
        createdSockets.append(socket)
        connections.socketCreated(socket, by: ObjectIdentifier(self))
    }

    /// Publishes the watched transfer's connection events, once: ``ConnectionOpened`` (and
    /// ``TLSNegotiated`` after a handshake) or ``ConnectionReused``. Called when the head is complete,
    /// or when the transfer ends without one, before the caller learns either.
    private func publishConnectionEvents() {
        guard let transfer, !connectionEventsPublished else { return }
        connectionEventsPublished = true
        let easy = handle.raw
        let (remoteAddress, remotePort) = remoteEndpoint()
        guard remoteAddress != nil else { return }  // no connection was made
        var connects = 0
        _ = ccurl_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connects)
        var localPort = 0
        _ = ccurl_easy_getinfo_long(easy, CURLINFO_LOCAL_PORT, &localPort)
        let (context, request) = (transfer.driver.context, transfer.driver.request)
        guard connects > 0 else {
            let connection = connections.reused(
                localPort: localPort, remoteAddress: remoteAddress, remotePort: remotePort, context: context, request: request)
            context.publish(.plugin(ConnectionReused(connection: connection)), request: request)
            return
        }
        let connection = connections.opened(
            by: ObjectIdentifier(self), created: createdSockets, localPort: localPort, remoteAddress: remoteAddress,
            remotePort: remotePort, context: context, request: request)
        context.publish(.plugin(ConnectionOpened(connection: connection)), request: request)
        var handshake: curl_off_t = 0
        guard ccurl_easy_getinfo_off_t(easy, CURLINFO_APPCONNECT_TIME_T, &handshake) == CURLE_OK, handshake > 0 else { return }
        var alpn: UnsafePointer<UInt8>?
        var alpnLength: UInt32 = 0
        let version = ccurl_tls_details(easy, &alpn, &alpnLength).map { String(cString: $0) }
        let applicationProtocol = alpn.flatMap {
            alpnLength == 0 ? nil : String(decoding: UnsafeBufferPointer(start: $0, count: Int(alpnLength)), as: UTF8.self)
        }
        context.publish(
            .plugin(
                TLSNegotiated(connection: connection, protocolVersion: version, applicationProtocol: applicationProtocol)),
            request: request)
    }

    /// Hands a completed head to the caller.
    ///
    /// Delivery waits until the end of the loop turn in which the head completed: a small response's
    /// head, body and end usually arrive in the same turn, so the caller then wakes once and finds
    /// everything ready, instead of being woken for the head and again for the body.
    func flushHead() {
        guard let block = readyHead, let transfer else { return }
        readyHead = nil
        if !timingsRecorded { recordTimings(final: false) }
        transfer.deliverHead(block)
    }

    /// Ends the transfer with libcurl's result code.
    func complete(with code: CURLcode) {
        guard let transfer else { return }
        if code == CURLE_OUT_OF_MEMORY, !headDelivered, callbackFailure == nil {
            // libcurl refuses a header line over 100 KiB this way, before the framer sees it.
            callbackFailure = ResponseHeadRules.headTooLarge(host: transfer.driver.request.head.authority ?? "the server")
        }
        // The final timings first: a head handed over now (a small response, complete in this turn)
        // then carries them, and libcurl is asked once.
        recordTimings(final: true)
        if watchesConnection { publishConnectionEvents() }
        if code != CURLE_OK || callbackFailure != nil { needsReset = true }
        let outcome: Result<Void, SwitchyardError>
        if code == CURLE_OK, callbackFailure == nil {
            outcome = .success(())
        } else if let activeProxy, callbackFailure == nil,
            let failure = CurlProxyRoute.failure(code, handle: handle, proxy: activeProxy, request: transfer.driver.request.head)
        {
            outcome = .failure(failure)
        } else {
            outcome = .failure(
                CurlErrorMapping.error(
                    for: code, detail: handle.errorMessage,
                    callbackFailure: callbackFailure,
                    request: transfer.driver.request.head,
                    idleTimeout: configuration.idleTimeout,
                    headReceived: headDelivered))
        }
        // A head still waiting to be handed over goes with the outcome: its reader then finds the
        // whole body instead of racing the end.
        if let block = readyHead {
            readyHead = nil
            transfer.deliverHead(block, finishing: outcome)
        } else {
            transfer.finish(outcome)
        }
    }
}

// MARK: - C callbacks

/// Runs `body` with the `CurlEasyTransfer` a callback's user data points at, neither retained nor
/// released (a header callback runs once per line).
///
/// The event loop keeps every CurlEasyTransfer alive as long as its handle exists (it is the
/// handle's owner), and libcurl only calls back while the handle is in the multi handle: the
/// reference is valid for the whole call.
private func withEasyTransfer<Result>(
    _ userdata: UnsafeMutableRawPointer?, _ body: (CurlEasyTransfer) -> Result
) -> Result {
    Unmanaged<CurlEasyTransfer>.fromOpaque(userdata!)._withUnsafeGuaranteedRef(body)
}

private let curlHeaderCallback: curl_write_callback = { data, size, count, userdata in
    withEasyTransfer(userdata) { $0.didReceiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count)) }
}

private let curlWriteCallback: curl_write_callback = { data, size, count, userdata in
    withEasyTransfer(userdata) { $0.didReceiveBody(UnsafeRawBufferPointer(start: data, count: size * count)) }
}

private let curlReadCallback: curl_read_callback = { data, size, count, userdata in
    withEasyTransfer(userdata) { $0.readUploadBytes(into: UnsafeMutableRawBufferPointer(start: data, count: size * count)) }
}

private let curlProgressCallback: curl_xferinfo_callback = { userdata, _, _, _, uploaded in
    withEasyTransfer(userdata) { $0.didProgress(uploaded: uploaded) }
    return 0
}

private let curlPrereqCallback: curl_prereq_callback = { userdata, _, _, _, _ in
    withEasyTransfer(userdata) { $0.requestWillBeSent() } ? CURL_PREREQFUNC_OK : CURL_PREREQFUNC_ABORT
}

private let curlSeekCallback: curl_seek_callback = { userdata, offset, origin in
    withEasyTransfer(userdata) { $0.seekUpload(to: offset, origin: origin) }
}

private let curlSockoptCallback: curl_sockopt_callback = { userdata, socket, purpose in
    if purpose == CURLSOCKTYPE_IPCXN { withEasyTransfer(userdata) { $0.didCreateSocket(socket) } }
    return ccurl_sockopt_ok()
}
