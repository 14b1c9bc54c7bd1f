import CCurl
import HTTPTypes
import SwitchyardCore
import SwitchyardTransportKit

/// Maps libcurl's result codes onto ``SwitchyardError`` kinds with actionable messages.
enum CurlErrorMapping {
    static func error(
        for code: CURLcode, detail: String, callbackFailure: SwitchyardError?, request: HTTPRequest,
        idleTimeout: Duration? = nil, headReceived: Bool = false
    ) -> SwitchyardError {
        if let callbackFailure { return callbackFailure }
        let host = request.authority ?? "the server"
        let reason = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        let cause = CurlError(code: Int(code.rawValue), message: reason)

        switch code {
        case CURLE_URL_MALFORMAT:
            return TransportFailure.unusableURL(detail: reason, underlyingError: cause)
        case CURLE_UNSUPPORTED_PROTOCOL where reason.contains("not supported or disabled"):
            return TransportFailure.unusableURL(detail: reason, underlyingError: cause)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return TransportFailure.unresolvedHost(host: host, detail: reason, underlyingError: cause)
        case CURLE_COULDNT_CONNECT:
            return TransportFailure.couldNotConnect(host: host, detail: reason, underlyingError: cause)
        case CURLE_GOT_NOTHING:
            return TransportFailure.closedWithoutResponse(host: host, underlyingError: cause)
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR:
            if reason.lowercased().contains("alert") {
                // A TLS 1.3 server refuses a client certificate after the client's handshake has ended,
                // so libcurl hears of it while reading: "tlsv13 alert certificate required".
                return TransportFailure.tlsFailed(host: host, detail: reason, underlyingError: cause)
            }
            if reason.lowercased().contains("chunk") {
                return TransportFailure.malformedChunking(host: host, detail: reason, underlyingError: cause)
            }
            return TransportFailure.connectionLost(host: host, detail: reason, underlyingError: cause)
        case CURLE_OPERATION_TIMEDOUT where reason.contains("too slow"):
            return SwitchyardError(
                .timeout, IdleTimeout.error(host: host, limit: idleTimeout ?? IdleTimeout.default).message,
                underlyingError: cause)
        case CURLE_OPERATION_TIMEDOUT:
            return TransportFailure.deadlinePassed(host: host, detail: reason, underlyingError: cause)
        case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            return TLSFailureReason.pinMismatch.error(host: host, detail: reason, underlyingError: cause)
        case CURLE_SSL_CERTPROBLEM:
            return TLSFailureReason.clientCertificateUnusable.error(host: host, detail: reason, underlyingError: cause)
        case CURLE_SSL_CACERT_BADFILE:
            return TLSFailureReason.trustRootsUnusable.error(host: host, detail: reason, underlyingError: cause)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CIPHER, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED:
            return TransportFailure.tlsFailed(host: host, detail: reason, underlyingError: cause)
        case CURLE_HTTP2 where detail.isEmpty && !headReceived:
            // libcurl 7.88 with no message: the HTTP/2 session had nothing left to do (the server's GOAWAY
            // ended it) while this stream was unanswered. A stream above the GOAWAY's last-stream-id ends
            // this way, but so does one the server reset after a GOAWAY that included it: not proof.
            return .connectionFailed(
                "\(host) ended the HTTP/2 connection (GOAWAY) before answering this request;"
                    + " it may have processed it. Send it again only if repeating it is harmless.", underlyingError: cause)
        case CURLE_PARTIAL_FILE where !headReceived:
            // "HTTP/2 stream 3 was not closed cleanly before end of the underlying stream": closed before the head.
            return TransportFailure.closedWithoutResponse(host: host, detail: reason, underlyingError: cause)
        case CURLE_HTTP2_STREAM where reason.contains("was not closed cleanly:"):
            return streamReset(reason, host: host, headReceived: headReceived, cause: cause)
        case CURLE_WEIRD_SERVER_REPLY, CURLE_UNSUPPORTED_PROTOCOL, CURLE_HTTP2, CURLE_HTTP2_STREAM,
            CURLE_HTTP3, CURLE_BAD_CONTENT_ENCODING:
            return TransportFailure.notHTTP(host: host, detail: reason, underlyingError: cause)
        case CURLE_PARTIAL_FILE:
            return TransportFailure.closedMidBody(host: host, detail: reason, underlyingError: cause)
        case CURLE_FILESIZE_EXCEEDED:
            return TransportFailure.declaredTooLarge(host: host, declared: nil, limit: nil, underlyingError: cause)
        case CURLE_ABORTED_BY_CALLBACK, CURLE_WRITE_ERROR:
            return .cancelled
        case CURLE_SEND_FAIL_REWIND:
            return TransportFailure.bodyNotReplayable(host: host, underlyingError: cause)
        default:
            return TransportFailure.otherFailure(
                stack: "libcurl", host: host,
                detail: "\(reason) (code \(code.rawValue))", underlyingError: cause)
        }
    }

    /// libcurl's `HTTP/2 stream 3 was not closed cleanly: INTERNAL_ERROR (err 2)`: the server reset the
    /// stream. libcurl 7.88 does not report `REFUSED_STREAM` this way: it sends the request again on a
    /// new connection by itself, up to 5 times, and then fails with `CURLE_SEND_ERROR` "Connection died,
    /// tried 5 times before giving up", the same as for a reused connection that died, which proves
    /// nothing; the refused branch below covers a libcurl that reports it.
    private static func streamReset(_ reason: String, host: String, headReceived: Bool, cause: CurlError) -> SwitchyardError {
        // "…cleanly: INTERNAL_ERROR (err 2)" → "INTERNAL_ERROR"
        let afterColon = reason.split(separator: ":", maxSplits: 1).last ?? reason[...]
        let code = afterColon.split(separator: " ").first.map(String.init) ?? String(afterColon)
        if headReceived {
            return TransportFailure.connectionLost(
                host: host,
                detail: "the server reset the HTTP/2 stream (\(code))"
                    + " before the whole body arrived", underlyingError: cause)
        }
        if code == "REFUSED_STREAM" { return TransportFailure.streamRefused(host: host, detail: reason, underlyingError: cause) }
        return TransportFailure.streamReset(host: host, code: code, underlyingError: cause)
    }
}

/// libcurl's own result, kept as the `SwitchyardError.underlyingError` of mapped failures.
public struct CurlError: Error, CustomStringConvertible {
    /// The `CURLcode` value.
    public let code: Int
    /// libcurl's detailed message.
    public let message: String

    /// `curl error <code>: <message>`.
    public var description: String { "curl error \(code): \(message)" }
}
