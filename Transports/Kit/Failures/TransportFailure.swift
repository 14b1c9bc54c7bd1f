public import SwitchyardCore

/// The failure messages every transport gives, written once: a transport maps its stack's error
/// codes to one of these, so the same fault reads the same whichever backend met it.
///
/// Each returns a ``SwitchyardError`` of the kind named in its documentation. `detail` is the
/// stack's own description of the cause (libcurl's text, a `URLError`'s, a NIO error); pass `nil`
/// when there is none.
public enum TransportFailure {
    // MARK: - Response size and shape

    /// ``SwitchyardError/Kind/responseTooLarge``: the head declares more than
    /// ``RequestOptions/maxResponseBytes``, so nothing was read.
    /// - Parameters:
    ///   - host: The server.
    ///   - declared: The declared length, when the stack tells it.
    ///   - limit: The limit, when the stack tells it.
    ///   - underlyingError: The stack's own error, if any.
    public static func declaredTooLarge(
        host: String, declared: Int64?, limit: Int64?,
        underlyingError: (any Error)? = nil
    ) -> SwitchyardError {
        let size = declared.map { "a body of \($0) bytes" } ?? "a body"
        let bound = limit.map { "the limit of \($0) bytes" } ?? "the configured limit"
        return SwitchyardError(
            .responseTooLarge,
            "The response from \(host) declares \(size), more than \(bound);"
                + " nothing was read. Raise maxResponseBytes or stream the body.", underlyingError: underlyingError)
    }

    /// ``SwitchyardError/Kind/protocolViolation``: the exchange ended cleanly, but with fewer body bytes
    /// than the head declared (``SwitchyardError/Reason/bodyTruncated``).
    public static func truncatedBody(host: String, declared: Int64, received: Int64) -> SwitchyardError {
        var error = SwitchyardError.protocolViolation(
            "\(host) declared \(declared) body bytes but sent \(received) before the exchange ended;"
                + " the body is truncated and was not delivered as complete.")
        error.reason = .bodyTruncated
        return error
    }

    /// ``SwitchyardError/Kind/protocolViolation``: the connection closed while the body was arriving
    /// (``SwitchyardError/Reason/bodyTruncated``).
    public static func closedMidBody(
        host: String, detail: String? = nil,
        underlyingError: (any Error)? = nil
    ) -> SwitchyardError {
        var error = SwitchyardError.protocolViolation(
            "\(host) closed the connection before the whole body arrived\(parenthesized(detail));"
                + " the body is truncated and was not delivered as complete.", underlyingError: underlyingError)
        error.reason = .bodyTruncated
        return error
    }

    /// ``SwitchyardError/Kind/protocolViolation``: the exchange ended without a response head.
    public static func noResponseHead(host: String) -> SwitchyardError {
        .protocolViolation("\(host) ended the exchange without a response head.")
    }

    /// ``SwitchyardError/Kind/protocolViolation``: the status code is outside 100–599.
    public static func statusOutOfRange(host: String, code: Int) -> SwitchyardError {
        .protocolViolation("\(host) answered with status \(code), outside 100–599; the response was refused.")
    }

    /// ``SwitchyardError/Kind/protocolViolation``: the bytes are not valid HTTP.
    public static func notHTTP(host: String, detail: String, underlyingError: (any Error)? = nil) -> SwitchyardError {
        .protocolViolation("\(host) sent a response that is not valid HTTP: \(detail).", underlyingError: underlyingError)
    }

    /// ``SwitchyardError/Kind/protocolViolation``: the chunked framing is broken.
    public static func malformedChunking(
        host: String, detail: String,
        underlyingError: (any Error)? = nil
    ) -> SwitchyardError {
        .protocolViolation("\(host) sent malformed chunked framing: \(detail).", underlyingError: underlyingError)
    }

    // MARK: - Connections

    /// ``SwitchyardError/Kind/connectionFailed``: the host name did not resolve
    /// (``SwitchyardError/Reason/hostNotResolved``). The request was never sent
    /// (``SwitchyardError/requestWasNotProcessed``).
    public static func unresolvedHost(
        host: String, detail: String,
        underlyingError: (any Error)? = nil
    ) -> SwitchyardError {
        var error = SwitchyardError.notProcessed(
            "Could not resolve \(host): \(detail). Check the host name and DNS.",
            underlyingError: underlyingError)
        error.reason = .hostNotResolved
        return error
    }

    /// ``SwitchyardError/Kind/connectionFailed``: no connection could be made
    /// (``SwitchyardError/Reason/couldNotConnect``). The request was never sent
    /// (``SwitchyardError/requestWasNotProcessed``).
    public static func couldNotConnect(
        host: String, detail: String,
        underlyingError: (any Error)? = nil
    ) -> SwitchyardError {
        var error = SwitchyardError.notProcessed(
            "Could not connect to \(host): \(detail). Is the server running and reachable?",
            underlyingError: underlyingError)
        error.reason = .couldNotConnect
        return error
    }

    /// ``SwitchyardError/Kind/connectionFailed``: the server refused the HTTP/2 stream (`REFUSED_STREAM`),
    /// or its `GOAWAY` named a last stream below this one: it did not process the request
    /// (``SwitchyardError/requestWasNotProcessed``), so sending it again is safe whatever its method.
    /// - Parameters:
    ///   - host: The server.
    ///   - detail: The stack's description.
    ///   - underlyingError: The stack's own error.
    public static func streamRefused(
        host: String, detail: String? = nil,
        underlyingError: (any Error)? = nil
    ) -> SwitchyardError {
        .notProcessed(
            "\(host) refused the HTTP/2 stream before processing the request\(parenthesized(detail))"
                + " (REFUSED_STREAM, or a GOAWAY that did not include it); it is safe to send again, on a new connection.",
            underlyingError: underlyingError)
    }

    /// ``SwitchyardError/Kind/connectionFailed``: the server reset the HTTP/2 stream with an error code
    /// other than `REFUSED_STREAM` before the response head: it may have processed the request, so only a
    /// request that is safe to repeat should be sent again.
    /// - Parameters:
    ///   - host: The server.
    ///   - code: The `RST_STREAM` error code's name, e.g. `INTERNAL_ERROR`.
    ///   - underlyingError: The stack's own error.
    public static func streamReset(
        host: String, code: String,
        underlyingError: (any Error)? = nil
    ) -> SwitchyardError {
        .connectionFailed(
            "\(host) reset the HTTP/2 stream (\(code)) before answering; it may have processed the"
                + " request. Send it again only if repeating it is harmless (an idempotent method or an Idempotency-Key).",
            underlyingError: underlyingError)
    }

    /// ``SwitchyardError/Kind/connectionFailed``: the server closed the connection before any response.
    public static func closedWithoutResponse(
        host: String, detail: String? = nil,
        underlyingError: (any Error)? = nil
    ) -> SwitchyardError {
        .connectionFailed(
            "\(host) closed the connection without sending a response\(parenthesized(detail)).",
            underlyingError: underlyingError)
    }

    /// ``SwitchyardError/Kind/connectionFailed``: the connection died after a request that is not safe
    /// to repeat was sent and before any response; the server may have processed it, so it was not
    /// sent again (libcurl, for one, would resend it by itself).
    public static func notResentAfterConnectionLoss(host: String, method: String) -> SwitchyardError {
        .connectionFailed(
            "The connection to \(host) ended after the \(method) request was sent and before any response;"
                + " the server may have processed it, so it was not sent again (add an Idempotency-Key"
                + " header to make it safe to retry).")
    }

    /// ``SwitchyardError/Kind/connectionFailed``: the connection broke during the exchange.
    public static func connectionLost(
        host: String, detail: String,
        underlyingError: (any Error)? = nil
    ) -> SwitchyardError {
        .connectionFailed("The connection to \(host) failed mid-exchange: \(detail).", underlyingError: underlyingError)
    }

    /// ``SwitchyardError/Kind/tls``: the TLS connection failed. When the TLS library's `detail` names a
    /// known cause (``TLSFailureReason/classify(_:)``), the message says which check failed and what to do.
    public static func tlsFailed(host: String, detail: String, underlyingError: (any Error)? = nil) -> SwitchyardError {
        if let reason = TLSFailureReason.classify(detail) {
            return reason.error(host: host, detail: detail, underlyingError: underlyingError)
        }
        return SwitchyardError(.tls, "The TLS connection to \(host) failed: \(detail).", underlyingError: underlyingError)
    }

    // MARK: - Requests

    /// ``SwitchyardError/Kind/invalidRequest``: the stack refused the URL.
    public static func unusableURL(detail: String, underlyingError: (any Error)? = nil) -> SwitchyardError {
        SwitchyardError(.invalidRequest, "The URL could not be used: \(detail).", underlyingError: underlyingError)
    }

    /// ``SwitchyardError/Kind/timeout``: the stack's own deadline (set from the exchange's) passed.
    public static func deadlinePassed(
        host: String, detail: String? = nil,
        underlyingError: (any Error)? = nil
    ) -> SwitchyardError {
        SwitchyardError(
            .timeout,
            "The request to \(host) did not complete before its deadline\(parenthesized(detail))."
                + " Raise the timeout if the server is known to be slow.", underlyingError: underlyingError)
    }

    /// ``SwitchyardError/Kind/transport``: the stack wanted to send a streamed (single-use) request
    /// body a second time, e.g. on a new connection; it was not.
    public static func bodyNotReplayable(host: String, underlyingError: (any Error)? = nil) -> SwitchyardError {
        SwitchyardError(
            .transport,
            "The connection to \(host) had to be re-established, but the streamed request"
                + " body cannot be sent twice; nothing was duplicated. Use a replayable body to allow that.",
            underlyingError: underlyingError)
    }

    /// The failure of a streamed request body's producer: a ``SwitchyardError`` as it is, anything
    /// else as ``SwitchyardError/Kind/transport``.
    public static func requestBodyFailed(_ error: any Error) -> SwitchyardError {
        (error as? SwitchyardError)
            ?? .transportFailed("Reading the request body failed: \(error)", underlyingError: error)
    }

    // MARK: - The transport itself

    /// ``SwitchyardError/Kind/transport``: the transport (or the stack behind it) was shut down.
    /// - Parameters:
    ///   - transport: What was shut down, e.g. "The HTTPClient behind this transport".
    ///   - underlyingError: The stack's own error, if any.
    public static func shutDown(_ transport: String, underlyingError: (any Error)? = nil) -> SwitchyardError {
        .transportFailed("\(transport) has been shut down; create a new transport.", underlyingError: underlyingError)
    }

    /// ``SwitchyardError/Kind/transport``: keeping or reading back received bytes failed.
    public static func bufferingFailed(host: String, _ error: any Error) -> SwitchyardError {
        .transportFailed("Buffering the response from \(host) failed: \(error).", underlyingError: error)
    }

    /// ``SwitchyardError/Kind/transport``: anything the mapping does not know, with the stack's name.
    /// - Parameters:
    ///   - stack: The HTTP stack, e.g. "libcurl".
    ///   - host: The server.
    ///   - detail: The stack's description.
    ///   - underlyingError: The stack's own error, if any.
    public static func otherFailure(
        stack: String, host: String, detail: String,
        underlyingError: (any Error)? = nil
    ) -> SwitchyardError {
        .transportFailed("\(stack) failed talking to \(host): \(detail).", underlyingError: underlyingError)
    }

    private static func parenthesized(_ detail: String?) -> String {
        detail.map { " (\($0))" } ?? ""
    }
}
