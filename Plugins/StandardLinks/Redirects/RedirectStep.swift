import HTTPTypes
import SwitchyardCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One redirect the chain may follow: the status, where it leads, and how the request changes.
struct RedirectStep {
    /// Whether `status` is a redirect that is followed; 300, 304, 305 and 306 are not. A switch, not
    /// a set: it runs for every response.
    static func isFollowed(_ status: Int) -> Bool {
        switch status {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }
    /// Headers that describe a body; removed when a redirect turns the request into a GET.
    static let bodyHeaders: [HTTPField.Name] = [
        .contentType, .contentLength, .contentEncoding, .contentLanguage, .contentLocation, .transferEncoding
    ]

    /// The redirect's status code.
    let status: Int
    /// The head of the request to send next.
    let head: HTTPRequest
    /// Whether the next request keeps the method and body (307, 308) instead of becoming a body-less GET.
    let keepsBody: Bool

    /// The step `response` asks for, or `nil` when it is not a followed redirect or its `Location`
    /// is missing, not a valid URL, or not `http`/`https` — then the response is final.
    /// - Parameters:
    ///   - response: The response to the current request.
    ///   - request: The current request's head (the base for a relative `Location`).
    ///   - strippedHeaders: Headers removed when the origin changes.
    init?(response: HTTPResponse, request: HTTPRequest, strippedHeaders: Set<HTTPField.Name>) {
        status = response.status.code
        guard Self.isFollowed(status), let location = response.headerFields[.location],
            let target = Self.resolve(location, against: request)
        else { return nil }
        keepsBody = status == 307 || status == 308
        let method: HTTPRequest.Method = keepsBody || request.method == .head ? request.method : .get

        var fields = request.headerFields
        if !keepsBody { for name in Self.bodyHeaders { fields[name] = nil } }
        var head = HTTPRequest(method: method, url: target, headerFields: fields)
        if RequestOrigin(head) != RequestOrigin(request) {
            for name in strippedHeaders { head.headerFields[name] = nil }
        }
        guard (try? RequestValidator.validate(head)) != nil else { return nil }
        self.head = head
    }

    /// Whether the step goes from `https` to `http`.
    func isDowngrade(from request: HTTPRequest) -> Bool {
        request.scheme?.lowercased() == "https" && head.scheme?.lowercased() == "http"
    }

    /// The request to send next, or `nil` when it must resend a body that cannot be sent again.
    func request(following request: Request) -> Request? {
        guard keepsBody else { return Request(head, body: nil, options: request.options) }
        if request.body?.replayability == .singleUse { return nil }
        return Request(head, body: request.body, options: request.options)
    }

    /// Resolves `location` (absolute or relative, RFC 3986 §5) against the request's URL.
    private static func resolve(_ location: String, against request: HTTPRequest) -> URL? {
        guard let base = request.url, !location.isEmpty,
            let url = URL(string: location, relativeTo: base)?.absoluteURL,
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty,
            // HTTPRequest(url:) stops the process on a URL that URLComponents cannot split: check first.
            let components = URLComponents(url: url, resolvingAgainstBaseURL: true), components.string != nil,
            components.scheme != nil, components.host != nil
        else { return nil }
        return url
    }
}
