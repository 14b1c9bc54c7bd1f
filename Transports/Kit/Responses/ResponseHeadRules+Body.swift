public import HTTPTypes
import SwitchyardCore

extension ResponseHeadRules {
    /// Whether a final response head is followed by a body (RFC 9110 §6.4.1), the one rule every
    /// transport applies when it builds a ``Response``.
    ///
    /// No body follows the answer to a `HEAD` request, nor a `204 No Content` or `304 Not Modified`,
    /// nor any `1xx`. That includes `101 Switching Protocols`: after it the connection carries another
    /// protocol, not an HTTP body. (A final `101` never reaches a caller anyway: ``validate(_:host:)``
    /// refuses it, because Switchyard asks for no upgrade.) Every other response has a body, possibly
    /// empty.
    /// - Parameters:
    ///   - method: The request's method.
    ///   - status: The final response's status.
    /// - Returns: `false` when the response has no body at all.
    public static func hasBody(method: HTTPRequest.Method, status: HTTPResponse.Status) -> Bool {
        !(method == .head || status.kind == .informational || status == .noContent || status == .notModified)
    }
}
