import HTTPTypes
import SwitchyardCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Converts request heads between OpenAPI's form (a path relative to a base URL, no scheme or
/// authority) and Switchyard's (an absolute head with scheme, authority and full path).
enum OpenAPIRequestHead {
    /// The scheme, authority and path prefix of a server URL.
    struct Base: Sendable {
        var scheme: String
        var authority: String
        /// The path without a trailing `/` (empty for the root).
        var path: Substring

        /// Parses `baseURL`.
        /// - Throws: `SwitchyardError.Kind.invalidRequest` when `baseURL` has no scheme or host.
        init(_ baseURL: URL) throws(SwitchyardError) {
            guard let base = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
                let text = base.string, let schemeRange = base.rangeOfScheme, let hostRange = base.rangeOfHost,
                !hostRange.isEmpty
            else {
                throw .invalidRequest(
                    "The OpenAPI server URL '\(baseURL.absoluteString)' has no scheme or host;"
                        + " pass an absolute URL such as https://api.example.com/v1 as the client's serverURL.")
            }
            let authorityEnd = base.rangeOfPort?.upperBound ?? hostRange.upperBound
            var path = base.rangeOfPath.map { text[$0] } ?? ""
            if path.hasSuffix("/") { path = path.dropLast() }
            scheme = String(text[schemeRange]).lowercased()
            authority = String(text[hostRange.lowerBound..<authorityEnd])
            self.path = path
        }
    }

    /// The absolute head for `request` sent to `baseURL`: the base URL's scheme and authority, and
    /// its path (without a trailing `/`) followed by the request's path and query — the way
    /// swift-openapi-runtime's own transports join them. The base URL's query and user information
    /// are not used.
    /// - Throws: `SwitchyardError.Kind.invalidRequest` when `baseURL` has no scheme or host.
    static func absolute(_ request: HTTPRequest, baseURL: URL) throws(SwitchyardError) -> HTTPRequest {
        absolute(request, base: try Base(baseURL))
    }

    /// The absolute head for `request` sent to the parsed server URL `base`.
    static func absolute(_ request: HTTPRequest, base: Base) -> HTTPRequest {
        let relative = request.path ?? ""
        var head = request
        head.scheme = base.scheme
        head.authority = base.authority
        if relative.isEmpty {
            head.path = base.path.isEmpty ? "/" : String(base.path)
        } else if relative.hasPrefix("/") || relative.hasPrefix("?") {
            head.path = base.path + relative
        } else {
            head.path = base.path + "/" + relative
        }
        return head
    }

    /// Splits an absolute head into OpenAPI's form: the head with only its path, and the base URL
    /// `scheme://authority`.
    /// - Throws: `SwitchyardError.Kind.invalidRequest` when the head has no scheme or authority.
    static func relative(_ head: HTTPRequest) throws(SwitchyardError) -> (HTTPRequest, URL) {
        guard let scheme = head.scheme, let authority = head.authority,
            let baseURL = URL(string: scheme + "://" + authority)
        else {
            throw .invalidRequest(
                "The request has no scheme or authority, so an OpenAPI middleware cannot be"
                    + " given a base URL; build requests from absolute URLs.")
        }
        var relative = head
        relative.scheme = nil
        relative.authority = nil
        return (relative, baseURL)
    }
}
