import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOHTTPCompression
import SwitchyardCore
import SwitchyardTransportKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Maps the errors AsyncHTTPClient and SwiftNIO report onto ``SwitchyardError`` kinds with actionable messages.
///
/// The same low-level error can mean different things depending on when it happens: a connection
/// closed before the head arrived means the server gave no answer (`connectionFailed`), the same
/// close while the body streams means the body is truncated (`protocolViolation`).
enum AsyncHTTPClientErrorMapping {
    /// Where the exchange was when the error happened.
    enum Phase {
        /// Connecting, sending the request, or waiting for the response head.
        case waitingForHead
        /// The head arrived; the body was streaming.
        case readingBody
    }

    static func error(for error: any Error, phase: Phase, host: String) -> SwitchyardError {
        switch error {
        case let error as SwitchyardError:
            return error
        case is CancellationError:
            return .cancelled
        case let error as HTTPClientError:
            return clientError(error, phase: phase, host: host)
        case let error as HTTPParserError:
            return parserError(error, phase: phase, host: host)
        case let error as NIOHTTP2Errors.StreamClosed:
            return streamClosed(error, phase: phase, host: host)
        case let error as NIOHTTPDecoderError:
            return TransportFailure.notHTTP(host: host, detail: "\(error)", underlyingError: error)
        case let error as NIOHTTPDecompression.DecompressionError:
            return decompressionError(error, host: host)
        case let error as NIOHTTPDecompression.ExtraDecompressionError:
            return .protocolViolation(
                "The compressed body from \(host) could not be decoded (\(error)):"
                    + " it is truncated or has trailing garbage.", underlyingError: error)
        case let error as NIOTooManyBytesError:
            return SwitchyardError(
                .responseTooLarge,
                "The response from \(host) was larger than the HTTP client"
                    + " accepts (\(error)); the rest was not read.", underlyingError: error)
        case let error as IOError:
            return ioError(error, phase: phase, host: host)
        case let error as ChannelError:
            return channelError(error, phase: phase, host: host)
        case let error as SocketAddressError:
            return unresolvedHost(error, host: host)
        case let error as SocketAddressError.UnknownHost:
            return unresolvedHost(error, host: host)
        default:
            return otherError(error, phase: phase, host: host)
        }
    }

    // MARK: - AsyncHTTPClient

    private static func clientError(_ error: HTTPClientError, phase: Phase, host: String) -> SwitchyardError {
        switch error {
        case .cancelled, .requestStreamCancelled:
            return .cancelled
        case .deadlineExceeded:
            return TransportFailure.deadlinePassed(host: host, underlyingError: error)
        case .connectTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout, .socksHandshakeTimeout,
            .httpProxyHandshakeTimeout:
            return SwitchyardError(
                .timeout,
                "Could not connect to \(host) in time (\(error.shortDescription))."
                    + " Is the server reachable? Raise the connect timeout if the network is slow.", underlyingError: error)
        case .readTimeout:
            return SwitchyardError(
                .timeout,
                "\(host) sent nothing for longer than the transport's idle timeout"
                    + " (AsyncHTTPClient's read timeout); the exchange was abandoned. Raise idleTimeout if the server is"
                    + " known to think that long.", underlyingError: error)
        case .writeTimeout:
            return SwitchyardError(
                .timeout,
                "The connection to \(host) went idle for longer than the HTTP"
                    + " client's \(error.shortDescription.lowercased()).", underlyingError: error)
        case .remoteConnectionClosed:
            return connectionClosed(error, phase: phase, host: host)
        case .invalidURL, .emptyHost, .emptyScheme, .missingSocketPath:
            return SwitchyardError(
                .invalidRequest,
                "The URL for \(host) could not be used"
                    + " (\(error.shortDescription)); write it as http://host/path or https://host/path.",
                underlyingError: error)
        case .traceRequestWithBody:
            return SwitchyardError(
                .invalidRequest, "A TRACE request must not have a body; remove it.",
                underlyingError: error)
        case .bodyLengthMismatch:
            return SwitchyardError(
                .invalidRequest,
                "The request body for \(host) produced a different number of bytes"
                    + " than its declared length; fix the declared length or send it with an unknown length.",
                underlyingError: error)
        case .redirectLimitReached, .redirectCycleDetected:
            return SwitchyardError(
                .tooManyRedirects,
                "The wrapped HTTPClient followed redirects from \(host) until"
                    + " it gave up (\(error.shortDescription)). Configure it with `redirectConfiguration: .disallow`"
                    + " so the chain handles redirects.", underlyingError: error)
        case .alreadyShutdown:
            return TransportFailure.shutDown("The HTTPClient behind this transport", underlyingError: error)
        case .invalidProxyResponse, .proxyAuthenticationRequired:
            return .connectionFailed(
                "The proxy in front of \(host) refused the connection"
                    + " (\(error.shortDescription)).", underlyingError: error)
        default:
            break
        }
        switch error.shortDescription {
        case HTTPClientError.unsupportedScheme("").shortDescription:
            return SwitchyardError(
                .invalidRequest, "Unsupported URL scheme for \(host): use http or https.",
                underlyingError: error)
        case HTTPClientError.invalidHeaderFieldNames([]).shortDescription,
            HTTPClientError.invalidHeaderFieldValues([]).shortDescription:
            return SwitchyardError(
                .invalidRequest,
                "A request header was refused by AsyncHTTPClient"
                    + " (\(error.shortDescription)); header names must be tokens and values must not contain control"
                    + " characters.", underlyingError: error)
        case HTTPClientError.serverOfferedUnsupportedApplicationProtocol("").shortDescription:
            return SwitchyardError(
                .tls,
                "The TLS connection to \(host) negotiated a protocol the HTTP client"
                    + " does not speak (\(error)).", underlyingError: error)
        default:
            return TransportFailure.otherFailure(
                stack: "AsyncHTTPClient", host: host, detail: "\(error)",
                underlyingError: error)
        }
    }

    /// The server closed the connection: no answer at all before the head, a truncated body after it.
    private static func connectionClosed(_ error: any Error, phase: Phase, host: String) -> SwitchyardError {
        switch phase {
        case .waitingForHead:
            return TransportFailure.closedWithoutResponse(host: host, underlyingError: error)
        case .readingBody:
            return TransportFailure.closedMidBody(host: host, underlyingError: error)
        }
    }

    // MARK: - HTTP/2

    /// The server closed the request's HTTP/2 stream with an error code: `REFUSED_STREAM` proves it did
    /// not process the request. swift-nio-http2 1.46 reports a stream above the last-stream-id of the
    /// server's `GOAWAY` as `CANCEL` (not `REFUSED_STREAM`, whatever `StreamClosedEvent`'s documentation
    /// says), which a server's own `RST_STREAM(CANCEL)` after processing also gives: so that case is
    /// "may have been processed". AsyncHTTPClient retries neither by itself.
    private static func streamClosed(_ error: NIOHTTP2Errors.StreamClosed, phase: Phase, host: String) -> SwitchyardError {
        let code = http2ErrorCodeName(error.errorCode)
        switch phase {
        case .waitingForHead where error.errorCode == .refusedStream:
            return TransportFailure.streamRefused(host: host, detail: code, underlyingError: error)
        case .waitingForHead where error.errorCode == .cancel:
            return TransportFailure.streamReset(
                host: host,
                code: "CANCEL, which SwiftNIO also reports for a stream"
                    + " above the last-stream-id of the server's GOAWAY", underlyingError: error)
        case .waitingForHead:
            return TransportFailure.streamReset(host: host, code: code, underlyingError: error)
        case .readingBody:
            return TransportFailure.connectionLost(
                host: host,
                detail: "the server reset the HTTP/2 stream (\(code))"
                    + " before the whole body arrived", underlyingError: error)
        }
    }

    /// The RFC 9113 name of an HTTP/2 error code, e.g. `INTERNAL_ERROR`.
    private static func http2ErrorCodeName(_ code: HTTP2ErrorCode) -> String {
        let names = [
            "NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT",
            "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR",
            "CONNECT_ERROR", "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED"
        ]
        let value = Int(code.networkCode)
        return names.indices.contains(value) ? names[value] : "error code \(value)"
    }

    // MARK: - SwiftNIO

    private static func parserError(_ error: HTTPParserError, phase: Phase, host: String) -> SwitchyardError {
        switch error {
        case .invalidEOFState, .closedConnection:
            return connectionClosedMidMessage(error, phase: phase, host: host)
        case .invalidChunkSize:
            return TransportFailure.malformedChunking(host: host, detail: "\(error)", underlyingError: error)
        case .headerOverflow:
            return SwitchyardError(
                .protocolViolation, ResponseHeadRules.headTooLarge(host: host).message,
                underlyingError: error)
        default:
            return TransportFailure.notHTTP(host: host, detail: "\(error)", underlyingError: error)
        }
    }

    /// The parser saw the connection end in the middle of a message.
    private static func connectionClosedMidMessage(_ error: any Error, phase: Phase, host: String) -> SwitchyardError {
        switch phase {
        case .waitingForHead:
            return .protocolViolation(
                "\(host) closed the connection in the middle of the response head.",
                underlyingError: error)
        case .readingBody:
            return connectionClosed(error, phase: phase, host: host)
        }
    }

    private static func decompressionError(
        _ error: NIOHTTPDecompression.DecompressionError, host: String
    ) -> SwitchyardError {
        if error == .limit {
            return SwitchyardError(
                .responseTooLarge,
                "The decoded body from \(host) exceeded the HTTP client's"
                    + " decompression limit; the rest was not read.", underlyingError: error)
        }
        return .protocolViolation(
            "The compressed body from \(host) could not be decoded (\(error));"
                + " the server sent broken gzip/deflate data.", underlyingError: error)
    }

    private static func ioError(_ error: IOError, phase: Phase, host: String) -> SwitchyardError {
        switch phase {
        case .waitingForHead where error.errnoCode == ECONNREFUSED:
            return TransportFailure.couldNotConnect(host: host, detail: "the connection was refused", underlyingError: error)
        case .waitingForHead:
            return .connectionFailed(
                "Could not exchange data with \(host): \(error). Is the server running"
                    + " and reachable?", underlyingError: error)
        case .readingBody:
            return TransportFailure.connectionLost(host: host, detail: "\(error)", underlyingError: error)
        }
    }

    private static func channelError(_ error: ChannelError, phase: Phase, host: String) -> SwitchyardError {
        switch error {
        case .connectTimeout:
            return SwitchyardError(.timeout, "Could not connect to \(host) in time (\(error)).", underlyingError: error)
        case .ioOnClosedChannel, .alreadyClosed, .eof, .inputClosed, .outputClosed:
            return connectionClosed(error, phase: phase, host: host)
        default:
            return .connectionFailed("The connection to \(host) failed: \(error).", underlyingError: error)
        }
    }

    private static func unresolvedHost(_ error: any Error, host: String) -> SwitchyardError {
        TransportFailure.unresolvedHost(host: host, detail: "\(error)", underlyingError: error)
    }

    /// Errors of modules this target does not link directly (NIOPosix, NIOSSL), recognised by type name.
    private static func otherError(_ error: any Error, phase: Phase, host: String) -> SwitchyardError {
        let typeName = String(reflecting: type(of: error))
        if typeName.hasPrefix("NIOSSL.") || typeName.contains("TLS") {
            return TransportFailure.tlsFailed(host: host, detail: "\(error)", underlyingError: error)
        }
        if typeName == "NIOPosix.NIOConnectionError" {
            // Its description names the DNS failure when resolution, not connecting, failed.
            if String(describing: error).contains("DNS error") { return unresolvedHost(error, host: host) }
            return TransportFailure.couldNotConnect(host: host, detail: "\(error)", underlyingError: error)
        }
        return TransportFailure.otherFailure(
            stack: "AsyncHTTPClient", host: host, detail: "\(error)",
            underlyingError: error)
    }
}
