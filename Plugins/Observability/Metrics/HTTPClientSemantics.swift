public import HTTPTypes
public import SwitchyardCore

/// The OpenTelemetry HTTP client semantic-convention values of a request, shared by the metrics
/// link (``HTTPClientMetrics``) and tracing plugins: method, scheme, server address and port, the
/// full URL without secrets, and `error.type`.
///
/// ```swift
/// let semantics = HTTPClientSemantics(request.head)
/// span.attributes["server.address"] = semantics.serverAddress
/// span.attributes["url.full"] = HTTPClientSemantics.fullURL(of: request.head)
/// ```
public struct HTTPClientSemantics: Sendable, Hashable {
    /// `http.request.method`: the method, or `_OTHER` for one that is not among RFC 9110's and `PATCH`
    /// (a bounded set, as the convention asks).
    public let method: String
    /// `url.scheme`, lowercased (empty when the request has none).
    public let scheme: String
    /// `server.address`: the host of the authority, lowercased, without user information or port.
    public let serverAddress: String
    /// `server.port`: the authority's port, or the scheme's default (80, 443); `nil` when neither is known.
    public let serverPort: Int?

    /// The values of `head`.
    /// - Parameter head: The request as it goes on the wire.
    public init(_ head: HTTPRequest) {
        let origin = RequestOrigin(head)
        method = Self.method(of: head.method)
        scheme = origin.scheme
        serverAddress =
            origin.host.hasPrefix("[") && origin.host.hasSuffix("]")
            ? String(origin.host.dropFirst().dropLast()) : origin.host
        serverPort = origin.port
    }

    /// `url.full`: `scheme://authority/path?query` with credential query values masked and no user
    /// information (`QueryRedaction.redact(_:)`).
    /// - Parameters:
    ///   - head: The request.
    ///   - redaction: Which query parameters are masked (default: `QueryRedaction.standard`).
    /// - Returns: The URL, safe to export.
    public static func fullURL(of head: HTTPRequest, redaction: QueryRedaction = .standard) -> String {
        redaction.redact("\(head.scheme ?? "")://\(head.authority ?? "")\(head.path ?? "/")")
    }

    /// `error.type` of a failed call: the `SwitchyardError.Kind` raw value (`timeout`,
    /// `connectionFailed`, …), or the status code for an `SwitchyardError.Kind.httpStatus` failure.
    /// - Parameter error: The failure.
    /// - Returns: A value from a bounded set.
    public static func errorType(of error: SwitchyardError) -> String {
        if error.kind == .httpStatus, let status = error.response?.status.code { return statusText(status) }
        return error.kind.rawValue
    }

    /// `error.type` of a response: its status code when it is 400 or more, else `nil`.
    /// - Parameter status: The response status.
    /// - Returns: The status code as text, or `nil` for a success.
    public static func errorType(of status: HTTPResponse.Status) -> String? {
        status.code >= 400 ? statusText(status.code) : nil
    }

    /// The status code as text, without building a string for the common codes.
    static func statusText(_ code: Int) -> String {
        switch code {
        case 200: "200"
        case 204: "204"
        case 301: "301"
        case 302: "302"
        case 304: "304"
        case 400: "400"
        case 401: "401"
        case 403: "403"
        case 404: "404"
        case 429: "429"
        case 500: "500"
        case 502: "502"
        case 503: "503"
        case 504: "504"
        default: String(code)
        }
    }

    /// `http.request.method` of `method`: its name when standard, else `_OTHER`.
    /// - Parameter method: The request method.
    /// - Returns: A value from a bounded set.
    public static func method(of method: HTTPRequest.Method) -> String {
        switch method {
        case .get, .head, .post, .put, .delete, .connect, .options, .trace, .patch: method.rawValue
        default: "_OTHER"
        }
    }
}
