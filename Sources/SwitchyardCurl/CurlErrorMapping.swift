import CCurl
import HTTPTypes
import Switchyard

/// Maps libcurl's result codes onto ``SwitchyardError`` kinds with actionable messages.
enum CurlErrorMapping {
    static func error(
        for code: CURLcode, detail: String, callbackFailure: SwitchyardError?, request: HTTPRequest,
        idleTimeout: Duration? = nil
    ) -> SwitchyardError {
        if let callbackFailure { return callbackFailure }
        let host = request.authority ?? "the server"
        let reason = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        let cause = CurlError(code: Int(code.rawValue), message: reason)

        switch code {
        case CURLE_URL_MALFORMAT:
            return SwitchyardError(.invalidRequest, "The URL could not be used: \(reason).", underlyingError: cause)
        case CURLE_UNSUPPORTED_PROTOCOL where reason.contains("not supported or disabled"):
            return SwitchyardError(.invalidRequest, "The URL could not be used: \(reason).", underlyingError: cause)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .connectionFailed("Could not resolve \(host): \(reason). Check the host name and DNS.",
                                     underlyingError: cause)
        case CURLE_COULDNT_CONNECT:
            return .connectionFailed("Could not connect to \(host): \(reason). Is the server running and reachable?",
                                     underlyingError: cause)
        case CURLE_GOT_NOTHING:
            return .connectionFailed("\(host) closed the connection without sending a response.",
                                     underlyingError: cause)
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR:
            if reason.lowercased().contains("chunk") {
                return .protocolViolation("\(host) sent malformed chunked framing: \(reason).", underlyingError: cause)
            }
            return .connectionFailed("The connection to \(host) failed mid-exchange: \(reason).",
                                     underlyingError: cause)
        case CURLE_OPERATION_TIMEDOUT where reason.contains("too slow"):
            return SwitchyardError(.timeout, IdleTimeout.error(host: host, limit: idleTimeout ?? IdleTimeout.default).message,
                                   underlyingError: cause)
        case CURLE_OPERATION_TIMEDOUT:
            return SwitchyardError(.timeout, "The request to \(host) did not complete before its deadline (\(reason))."
                + " Raise the timeout if the server is known to be slow.", underlyingError: cause)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED:
            return SwitchyardError(.tls, "The TLS connection to \(host) failed: \(reason).", underlyingError: cause)
        case CURLE_WEIRD_SERVER_REPLY, CURLE_UNSUPPORTED_PROTOCOL, CURLE_HTTP2, CURLE_HTTP2_STREAM,
             CURLE_HTTP3, CURLE_BAD_CONTENT_ENCODING:
            return .protocolViolation("\(host) sent a response that is not valid HTTP: \(reason).",
                                      underlyingError: cause)
        case CURLE_PARTIAL_FILE:
            return .protocolViolation("\(host) closed the connection before the whole body arrived (\(reason));"
                + " the body is truncated and was not delivered as complete.", underlyingError: cause)
        case CURLE_FILESIZE_EXCEEDED:
            return SwitchyardError(.responseTooLarge, "The response from \(host) declared a body larger than the"
                + " configured maximum; nothing was read. Raise maxResponseBytes or stream the body.",
                underlyingError: cause)
        case CURLE_ABORTED_BY_CALLBACK, CURLE_WRITE_ERROR:
            return .cancelled
        case CURLE_SEND_FAIL_REWIND:
            return SwitchyardError(.transport, "The connection to \(host) had to be re-established, but the"
                + " streamed request body cannot be sent twice; nothing was duplicated.", underlyingError: cause)
        default:
            return .transportFailed("libcurl failed talking to \(host): \(reason) (code \(code.rawValue)).",
                                    underlyingError: cause)
        }
    }
}

/// libcurl's own result, kept as the ``SwitchyardError/underlyingError`` of mapped failures.
public struct CurlError: Error, CustomStringConvertible {
    /// The `CURLcode` value.
    public let code: Int
    /// libcurl's detailed message.
    public let message: String

    /// `curl error <code>: <message>`.
    public var description: String { "curl error \(code): \(message)" }
}
