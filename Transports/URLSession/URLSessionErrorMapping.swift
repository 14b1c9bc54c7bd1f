import Foundation
import SwitchyardCore
import SwitchyardTransportKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Maps URLSession's `URLError`s onto ``SwitchyardError`` kinds with actionable messages.
///
/// On Linux, swift-corelibs-foundation maps many libcurl failures to `NSURLErrorUnknown` (-1) and
/// keeps libcurl's own text as the description ("transfer closed with 50 bytes remaining to read",
/// "Illegal or missing hexadecimal sequence in chunked-encoding", "Header without colon"). Those
/// are told apart by that text; anything unrecognised stays ``SwitchyardError/Kind/transport``.
enum URLSessionErrorMapping {
    /// - Parameters:
    ///   - error: What URLSession reported.
    ///   - host: The request's authority, for messages.
    ///   - receivedHead: Whether a response head had already arrived.
    static func error(for error: any Error, host: String, receivedHead: Bool) -> SwitchyardError {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else {
            return TransportFailure.otherFailure(
                stack: "URLSession", host: host, detail: nsError.localizedDescription,
                underlyingError: error)
        }
        let reason = detail(of: nsError)
        switch nsError.code {
        case NSURLErrorCancelled:
            return .cancelled
        case NSURLErrorTimedOut:
            return TransportFailure.deadlinePassed(host: host, detail: reason, underlyingError: error)
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed:
            return TransportFailure.unresolvedHost(host: host, detail: reason, underlyingError: error)
        case NSURLErrorCannotConnectToHost, NSURLErrorNotConnectedToInternet, NSURLErrorInternationalRoamingOff,
            NSURLErrorCallIsActive, NSURLErrorDataNotAllowed, NSURLErrorCannotLoadFromNetwork:
            return TransportFailure.couldNotConnect(host: host, detail: reason, underlyingError: error)
        case NSURLErrorNetworkConnectionLost:
            return TransportFailure.connectionLost(host: host, detail: reason, underlyingError: error)
        case NSURLErrorBadServerResponse where !receivedHead:
            return TransportFailure.closedWithoutResponse(host: host, detail: reason, underlyingError: error)
        case NSURLErrorBadServerResponse, NSURLErrorCannotParseResponse, NSURLErrorCannotDecodeContentData,
            NSURLErrorCannotDecodeRawData, NSURLErrorZeroByteResource:
            return TransportFailure.notHTTP(host: host, detail: reason, underlyingError: error)
        case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateHasBadDate,
            NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasUnknownRoot,
            NSURLErrorServerCertificateNotYetValid, NSURLErrorClientCertificateRejected,
            NSURLErrorClientCertificateRequired, NSURLErrorAppTransportSecurityRequiresSecureConnection:
            return TransportFailure.tlsFailed(host: host, detail: reason, underlyingError: error)
        case NSURLErrorHTTPTooManyRedirects:
            return SwitchyardError(
                .tooManyRedirects, "\(host) redirected too often: \(reason).",
                underlyingError: error)
        case NSURLErrorBadURL:
            return TransportFailure.unusableURL(detail: reason, underlyingError: error)
        case NSURLErrorUnsupportedURL:
            // corelibs reports responses libcurl refuses (HTTP/0.9, a non-numeric status) with this code;
            // the scheme itself was validated before sending.
            if mentionsResponse(reason) {
                return TransportFailure.notHTTP(host: host, detail: reason, underlyingError: error)
            }
            // …and, rarely, a connection reset while receiving ("Recv failure: Connection reset by peer",
            // seen once in 100,000 soak requests).
            if reason.contains("Recv failure") || reason.contains("Send failure") || reason.contains("reset by peer") {
                return TransportFailure.connectionLost(host: host, detail: reason, underlyingError: error)
            }
            return TransportFailure.unusableURL(detail: reason, underlyingError: error)
        default:
            return classifyByText(reason, host: host, error: error)
        }
    }

    /// Classifies libcurl's description carried by corelibs' `NSURLErrorUnknown`.
    private static func classifyByText(_ reason: String, host: String, error: any Error) -> SwitchyardError {
        let text = reason.lowercased()
        if text.contains("out of memory") || text.contains("header size") || text.contains("too large") {
            // FoundationNetworking's libcurl refuses a header line over 100 KiB, or 300 KiB of heads
            // including interim ones, this way, before any head is delivered.
            return .protocolViolation(
                "\(host) sent response heads larger than the HTTP stack accepts (over"
                    + " \(ResponseHeadRules.maxHeadBytes / 1024) KiB in one head, or libcurl's 300 KiB including interim"
                    + " responses); the response was refused.", underlyingError: error)
        }
        if text.contains("transfer closed") || text.contains("remaining to read") {
            return TransportFailure.closedMidBody(host: host, detail: reason, underlyingError: error)
        }
        let protocolMarkers = [
            "chunk", "header", "weird server reply", "content encoding", "transfer-encoding", "unencoding",
            "http/0.9", "response code", "http version", "invalid"
        ]
        if protocolMarkers.contains(where: text.contains) {
            return TransportFailure.notHTTP(host: host, detail: reason, underlyingError: error)
        }
        if text.contains("ssl") || text.contains("tls") || text.contains("certificate") {
            return TransportFailure.tlsFailed(host: host, detail: reason, underlyingError: error)
        }
        if text.contains("connection reset") || text.contains("broken pipe") || text.contains("recv failure")
            || text.contains("send failure")
        {
            return TransportFailure.connectionLost(host: host, detail: reason, underlyingError: error)
        }
        return TransportFailure.otherFailure(stack: "URLSession", host: host, detail: reason, underlyingError: error)
    }

    private static func mentionsResponse(_ reason: String) -> Bool {
        let text = reason.lowercased()
        return text.contains("http/0.9") || text.contains("response")
    }

    /// The most specific description available: the underlying error's, then the error's own.
    private static func detail(of error: NSError) -> String {
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
            let text = underlying.userInfo[NSLocalizedDescriptionKey] as? String, !text.isEmpty
        {
            return text
        }
        if let text = error.userInfo[NSLocalizedDescriptionKey] as? String, !text.isEmpty { return text }
        return "URL error \(error.code)"
    }
}
