#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Switchyard

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
            return .transportFailed("URLSession failed talking to \(host): \(nsError.localizedDescription).",
                                    underlyingError: error)
        }
        let reason = detail(of: nsError)
        switch nsError.code {
        case NSURLErrorCancelled:
            return .cancelled
        case NSURLErrorTimedOut:
            return SwitchyardError(.timeout, "The request to \(host) did not complete in time (\(reason))."
                + " Raise the timeout if the server is known to be slow.", underlyingError: error)
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed:
            return .connectionFailed("Could not resolve \(host): \(reason). Check the host name and DNS.",
                                     underlyingError: error)
        case NSURLErrorCannotConnectToHost, NSURLErrorNotConnectedToInternet, NSURLErrorInternationalRoamingOff,
             NSURLErrorCallIsActive, NSURLErrorDataNotAllowed, NSURLErrorCannotLoadFromNetwork:
            return .connectionFailed("Could not connect to \(host): \(reason). Is the server running and reachable?",
                                     underlyingError: error)
        case NSURLErrorNetworkConnectionLost:
            return .connectionFailed("The connection to \(host) was lost mid-exchange: \(reason).",
                                     underlyingError: error)
        case NSURLErrorBadServerResponse where !receivedHead:
            return .connectionFailed("\(host) closed the connection without sending a response (\(reason)).",
                                     underlyingError: error)
        case NSURLErrorBadServerResponse, NSURLErrorCannotParseResponse, NSURLErrorCannotDecodeContentData,
             NSURLErrorCannotDecodeRawData, NSURLErrorZeroByteResource:
            return .protocolViolation("\(host) sent a response that is not valid HTTP: \(reason).",
                                      underlyingError: error)
        case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateHasBadDate,
             NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasUnknownRoot,
             NSURLErrorServerCertificateNotYetValid, NSURLErrorClientCertificateRejected,
             NSURLErrorClientCertificateRequired, NSURLErrorAppTransportSecurityRequiresSecureConnection:
            return SwitchyardError(.tls, "The TLS connection to \(host) failed: \(reason).", underlyingError: error)
        case NSURLErrorHTTPTooManyRedirects:
            return SwitchyardError(.tooManyRedirects, "\(host) redirected too often: \(reason).",
                                   underlyingError: error)
        case NSURLErrorBadURL:
            return SwitchyardError(.invalidRequest, "The URL could not be used: \(reason).", underlyingError: error)
        case NSURLErrorUnsupportedURL:
            // corelibs reports responses libcurl refuses (HTTP/0.9, a non-numeric status) with this code;
            // the scheme itself was validated before sending.
            if mentionsResponse(reason) {
                return .protocolViolation("\(host) sent a response that is not valid HTTP: \(reason).",
                                          underlyingError: error)
            }
            return SwitchyardError(.invalidRequest, "The URL could not be used: \(reason).", underlyingError: error)
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
            return .protocolViolation("\(host) sent response heads larger than the HTTP stack accepts (over"
                + " \(ResponseHeadRules.maxHeadBytes / 1024) KiB in one head, or libcurl's 300 KiB including interim"
                + " responses); the response was refused.", underlyingError: error)
        }
        if text.contains("transfer closed") || text.contains("remaining to read") {
            return .protocolViolation("\(host) closed the connection before the whole body arrived (\(reason));"
                + " the body is truncated and was not delivered as complete.", underlyingError: error)
        }
        let protocolMarkers = ["chunk", "header", "weird server reply", "content encoding", "transfer-encoding", "unencoding",
                               "http/0.9", "response code", "http version", "invalid"]
        if protocolMarkers.contains(where: text.contains) {
            return .protocolViolation("\(host) sent a response that is not valid HTTP: \(reason).",
                                      underlyingError: error)
        }
        if text.contains("ssl") || text.contains("tls") || text.contains("certificate") {
            return SwitchyardError(.tls, "The TLS connection to \(host) failed: \(reason).", underlyingError: error)
        }
        if text.contains("connection reset") || text.contains("broken pipe") || text.contains("recv failure")
            || text.contains("send failure") {
            return .connectionFailed("The connection to \(host) failed mid-exchange: \(reason).",
                                     underlyingError: error)
        }
        return .transportFailed("URLSession failed talking to \(host): \(reason).", underlyingError: error)
    }

    private static func mentionsResponse(_ reason: String) -> Bool {
        let text = reason.lowercased()
        return text.contains("http/0.9") || text.contains("response")
    }

    /// The most specific description available: the underlying error's, then the error's own.
    private static func detail(of error: NSError) -> String {
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
           let text = underlying.userInfo[NSLocalizedDescriptionKey] as? String, !text.isEmpty {
            return text
        }
        if let text = error.userInfo[NSLocalizedDescriptionKey] as? String, !text.isEmpty { return text }
        return "URL error \(error.code)"
    }
}
