public import HTTPTypes

/// The one error type every Switchyard API throws.
///
/// Switch over ``kind`` to decide what to do; read ``message`` to tell a person what went wrong
/// and what to try; inspect ``underlyingError`` for the transport's own cause.
///
/// ```swift
/// do {
///     let response = try await client.send(request)
/// } catch let error as SwitchyardError {
///     switch error.kind {
///     case .timeout, .connectionFailed: showOfflineBanner()
///     case .cancelled: break
///     default: log(error.description)
///     }
/// }
/// ```
///
/// The chain wraps a failure once, at its boundary, and never re-wraps an error that is
/// already a `SwitchyardError`.
///
/// ### What no error can report
///
/// Two platform libraries trap on certain bytes from the network, ending the process before any
/// error exists, and no caller can intercept them (see the README's transports table):
/// FoundationNetworking (`URLSessionTransport` on Linux) on a chunked body followed by trailer
/// fields, and AsyncHTTPClient 1.37 on a status code below 100. Use `CurlTransport` for servers you
/// do not trust.
public struct SwitchyardError: Error, CustomStringConvertible {
    /// The category of a failure: a small, open set a caller can switch over.
    ///
    /// `Kind` is a struct with static members rather than an enum, so that new categories (added by
    /// later versions or by plugins) never break a caller's `switch`. Match the kinds you handle and
    /// keep a `default:` for the rest:
    ///
    /// ```swift
    /// switch error.kind {
    /// case .timeout, .connectionFailed: showOfflineBanner()
    /// case .cancelled: break
    /// default: log(error.description)
    /// }
    /// ```
    ///
    /// A plugin defines its own kind the same way Switchyard does:
    ///
    /// ```swift
    /// extension SwitchyardError.Kind {
    ///     static let quotaExceeded = Self(rawValue: "quotaExceeded")
    /// }
    /// ```
    ///
    /// The raw values are stable: they appear in `yard request -w '%{json}'` and are safe as metric labels.
    public struct Kind: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The kind's stable name, e.g. `timeout`.
        public let rawValue: String

        /// Creates a kind with this stable name; two kinds with the same name are equal.
        /// - Parameter rawValue: The name, e.g. `quotaExceeded`.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The kind's stable name.
        public var description: String { rawValue }

        /// The request could not be sent as given: a bad URL, an illegal header, an unsupported scheme,
        /// or a single-use body that was asked to be sent twice.
        public static let invalidRequest = Self(rawValue: "invalidRequest")
        /// The caller cancelled the exchange (task cancellation or an explicit cancel).
        public static let cancelled = Self(rawValue: "cancelled")
        /// The exchange's deadline or timeout expired before it finished.
        public static let timeout = Self(rawValue: "timeout")
        /// No connection could be made or kept: refused, reset, unreachable, name not resolved.
        public static let connectionFailed = Self(rawValue: "connectionFailed")
        /// The TLS handshake or certificate verification failed.
        public static let tls = Self(rawValue: "tls")
        /// The server broke HTTP: a malformed status or header line, bad chunk framing, a body
        /// shorter than its declared length, or content that fails to decode (e.g. broken gzip).
        public static let protocolViolation = Self(rawValue: "protocolViolation")
        /// The response body exceeded the configured maximum size.
        public static let responseTooLarge = Self(rawValue: "responseTooLarge")
        /// The response status was not accepted by validation.
        public static let httpStatus = Self(rawValue: "httpStatus")
        /// The response body could not be decoded into the expected model.
        public static let decoding = Self(rawValue: "decoding")
        /// Any other failure reported by the transport.
        public static let transport = Self(rawValue: "transport")

        /// The kinds the kernel declares (kinds a module declares where it raises them, such as the
        /// transport kit's, are not listed).
        public static let allCases: [Self] = [
            .invalidRequest, .cancelled, .timeout, .connectionFailed, .tls, .protocolViolation,
            .responseTooLarge, .httpStatus, .decoding, .transport
        ]
    }

    /// The category of the failure.
    public var kind: Kind
    /// A human-readable, actionable explanation. Never contains secrets.
    public var message: String
    /// The cause reported by a lower layer (a transport, a decoder, an interceptor), if any.
    public var underlyingError: (any Error)?
    /// The request head as it was when the failure happened, if known.
    public var request: HTTPRequest?
    /// The response head, if one had been received (e.g. for ``Kind/httpStatus``).
    public var response: HTTPResponse?
    /// The beginning of that response's body, when it was kept (a rejected status: see
    /// `StatusValidation.keptBodyBytes`), so the server's own error document can be read.
    public var responseBody: ResponseBodyExcerpt?
    /// The attempt number (1-based) during which the failure happened, if known.
    public var attempt: Int?
    /// The name of the interceptor type that threw the error, if an interceptor did.
    public var interceptorName: String?
    /// Whether the transport knows that the server did not process the request, so sending it
    /// again cannot do anything twice. Default `false`: the server may or may not have acted on it.
    ///
    /// A transport sets it only when the protocol proves it: an HTTP/2 stream refused with
    /// `REFUSED_STREAM`, a stream above the last-stream-id of the server's `GOAWAY` (RFC 9113 §8.7),
    /// or a request never sent because no connection could be made. The kind stays
    /// ``Kind/connectionFailed``. A link that sends requests again may then resend even a request
    /// that is not safe to repeat (a POST), except a single-use body; a stream reset or a `GOAWAY`
    /// that may have followed processing leaves it `false`.
    public var requestWasNotProcessed = false
    /// Which failure within ``kind`` it was, when the transport could tell (a host name that did not
    /// resolve, a refused connection, which TLS check failed); `nil` otherwise. Every transport sets the
    /// same reason for the same cause (`TransportFailure`, `TLSFailureReason`), so a caller that must
    /// tell them apart (e.g. `yard request`'s curl exit codes) need not read messages.
    public var reason: Reason?

    /// Creates an error of the given kind.
    /// - Parameters:
    ///   - kind: The failure category.
    ///   - message: An actionable explanation for a person.
    ///   - underlyingError: The lower-level cause, if any.
    public init(_ kind: Kind, _ message: String, underlyingError: (any Error)? = nil) {
        self.kind = kind
        self.message = message
        self.underlyingError = underlyingError
    }

    /// The kind's stable name, without any payload: safe as a metrics label.
    public var shortDescription: String { kind.rawValue }

    /// The kind, the message and, when present, the attempt, the interceptor and the cause.
    public var description: String {
        var text = "\(kind.rawValue): \(message)"
        if let interceptorName { text += " [interceptor: \(interceptorName)]" }
        if let attempt, attempt > 1 { text += " [attempt \(attempt)]" }
        if let underlyingError { text += " (cause: \(underlyingError))" }
        return text
    }
}

// MARK: - Constructors

extension SwitchyardError {
    /// The request is not valid as given; `message` says what to fix.
    public static func invalidRequest(_ message: String) -> Self { Self(.invalidRequest, message) }

    /// The exchange was cancelled by its caller.
    public static var cancelled: Self {
        Self(.cancelled, "The request was cancelled before it completed.")
    }

    /// The exchange's deadline expired.
    public static func timedOut(_ detail: String = "") -> Self {
        let suffix = detail.isEmpty ? "" : " \(detail)"
        return Self(
            .timeout,
            "The request did not complete before its deadline.\(suffix)"
                + " Raise the timeout if the server is known to be slow.")
    }

    /// No connection could be established or kept.
    public static func connectionFailed(_ message: String, underlyingError: (any Error)? = nil) -> Self {
        Self(.connectionFailed, message, underlyingError: underlyingError)
    }

    /// The server provably did not process the request (see ``requestWasNotProcessed``):
    /// ``Kind/connectionFailed`` with that flag set.
    /// - Parameters:
    ///   - message: What happened, e.g. that the server refused the HTTP/2 stream.
    ///   - underlyingError: The transport's own error.
    public static func notProcessed(_ message: String, underlyingError: (any Error)? = nil) -> Self {
        var error = Self(.connectionFailed, message, underlyingError: underlyingError)
        error.requestWasNotProcessed = true
        return error
    }

    /// The server's response broke the HTTP protocol.
    public static func protocolViolation(_ message: String, underlyingError: (any Error)? = nil) -> Self {
        Self(.protocolViolation, message, underlyingError: underlyingError)
    }

    /// The response body grew past `limit` bytes.
    public static func responseTooLarge(limit: Int64) -> Self {
        Self(
            .responseTooLarge,
            "The response body exceeded the limit of \(limit) bytes; the rest was not read."
                + " Raise the limit, or stream the body instead of buffering it.")
    }

    /// The TLS handshake or certificate verification failed.
    public static func tls(_ message: String, underlyingError: (any Error)? = nil) -> Self {
        Self(.tls, message, underlyingError: underlyingError)
    }

    /// Validation refused the response's status; the response head is attached.
    public static func httpStatus(_ message: String, response: HTTPResponse) -> Self {
        var error = Self(.httpStatus, message)
        error.response = response
        return error
    }

    /// The response body could not be decoded into the expected model.
    public static func decoding(_ message: String, underlyingError: (any Error)? = nil) -> Self {
        Self(.decoding, message, underlyingError: underlyingError)
    }

    /// Any other transport failure.
    public static func transportFailed(_ message: String, underlyingError: (any Error)? = nil) -> Self {
        Self(.transport, message, underlyingError: underlyingError)
    }
}

// MARK: - Wrapping

extension SwitchyardError {
    /// Converts any error into a `SwitchyardError`, keeping one that already is.
    ///
    /// `CancellationError` becomes ``Kind/cancelled``; anything else becomes ``Kind/transport``
    /// with the original as ``underlyingError``.
    /// - Parameter error: The error to convert.
    /// - Returns: The error as a `SwitchyardError`.
    public static func wrapping(_ error: any Error) -> Self {
        switch error {
        case let error as SwitchyardError: return error
        case is CancellationError: return .cancelled
        default: return .transportFailed("The request failed: \(error)", underlyingError: error)
        }
    }
}

// MARK: - The boundary

extension SwitchyardError {
    /// `error` as it leaves a chain link or a response body: converted once (see ``wrapping(_:)``),
    /// with the request, response and attempt filled in where it does not carry them yet.
    /// - Parameters:
    ///   - error: What the link threw.
    ///   - request: The request the link was handling.
    ///   - response: The response head, when the failure came after it.
    ///   - attempt: The attempt the link was running.
    ///   - thrownBy: The interceptor whose own code threw an error of another type, if one did.
    static func sealing(
        _ error: any Error, request: HTTPRequest, response: HTTPResponse? = nil, attempt: Int? = nil,
        thrownBy interceptor: String? = nil
    ) -> Self {
        var sealed = wrapping(error)
        if let interceptor, !(error is CancellationError) {
            sealed.interceptorName = interceptor
            sealed.message = "Interceptor \(interceptor) failed: \(error)"
        }
        if sealed.request == nil { sealed.request = request }
        if sealed.response == nil { sealed.response = response }
        if sealed.attempt == nil { sealed.attempt = attempt }
        return sealed
    }
}
