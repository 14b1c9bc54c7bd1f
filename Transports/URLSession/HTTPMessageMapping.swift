import Foundation
import HTTPTypes
import SwitchyardCore
import SwitchyardTransportKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Builds the `URLRequest` for a ``Request``.
enum RequestMapping {
    /// The request without its body: URL, method, header fields and the no-cache, no-cookie policy.
    static func urlRequest(for request: Request, timeout: TimeInterval) throws(SwitchyardError) -> URLRequest {
        let head = request.head
        guard let target = RequestTarget.absoluteURL(of: head), let url = URL(string: target) else {
            throw .invalidRequest(
                "The request's URL could not be formed from scheme '\(head.scheme ?? "")',"
                    + " host '\(head.authority ?? "")' and path '\(QueryRedaction.standard.redact(head.path ?? ""))'.")
        }
        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        if head.method != .get { urlRequest.httpMethod = head.method.rawValue }  // GET is URLRequest's default
        urlRequest.httpShouldHandleCookies = false
        // URLSession derives `Content-Length` and `Transfer-Encoding` from the body itself: a value
        // given here would be ignored or contradict the body actually sent.
        for field in head.headerFields where !field.name.matches(.contentLength) && !field.name.matches(.transferEncoding) {
            // URLRequest keeps one value per name: repeats are joined with ",".
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        if !head.headerFields.containsField(named: .acceptEncoding) {
            urlRequest.setValue(acceptEncoding(request.options.contentDecoders), forHTTPHeaderField: "Accept-Encoding")
        }
        return urlRequest
    }

    /// The `Accept-Encoding` of a request that sets none: the codings it accepts
    /// (``SwitchyardCore/RequestOptions/contentDecoders``) that URLSession decodes, as every transport
    /// advertises them, instead of URLSession's own list (which would advertise `br` and `zstd` to
    /// an app that did not enable them on the other transports).
    static func acceptEncoding(_ decoders: ContentDecoders) -> String {
        guard decoders != .builtIn else { return ContentDecoders.builtIn.acceptEncoding }
        return decoders.acceptEncoding.split(separator: ", ")
            .filter { ResponseHeadMapping.decodedContentCodings.contains(String($0)) }.joined(separator: ", ")
    }
}

/// Turns an `HTTPURLResponse` into an `HTTPResponse`.
enum ResponseHeadMapping {
    /// The status and header fields.
    ///
    /// `allHeaderFields` is a dictionary: the server's order is lost and repeated fields arrive
    /// joined with ", ". Fields are therefore emitted sorted by name (case-insensitively) so the
    /// result is deterministic, and a joined `Set-Cookie` is split back into one field per cookie
    /// (a cookie value cannot contain ", " followed by `name=`; an `Expires` date never matches).
    static func head(of response: HTTPURLResponse) -> HTTPResponse {
        // FoundationNetworking converts its fields into a new dictionary on every read: read once.
        let received = response.allHeaderFields
        // The sort key is lower-cased once per field, not once per comparison.
        var pairs: [(key: String, name: String, value: String)] = []
        pairs.reserveCapacity(received.count)
        for (key, value) in received {
            guard let name = key as? String else { continue }
            let text = (value as? String) ?? "\(value)"
            pairs.append((name.lowercased(), name, text))
        }
        pairs.sort { ($0.key, $0.name) < ($1.key, $1.name) }
        var fields = HTTPFields()
        fields.reserveCapacity(pairs.count)
        for pair in pairs {
            guard let name = CommonFieldNames.name(pair.name) else { continue }
            if name == .setCookie {
                for cookie in splitSetCookie(pair.value) { fields.append(HTTPField(name: name, value: cookie)) }
            } else {
                fields.append(HTTPField(name: name, value: pair.value))
            }
        }
        // The exchange refuses codes outside 100…599 before mapping; this only keeps the initializer safe.
        let code = (100...999).contains(response.statusCode) ? response.statusCode : 500
        return HTTPResponse(status: HTTPResponse.Status(code: code), headerFields: fields)
    }

    /// The content codings URLSession decodes before handing the body over, whether or not the
    /// request accepts them: FoundationNetworking's libcurl (Linux) always decodes `br` and `zstd`
    /// too, and cannot be told not to. The decoded bytes still count against `maxResponseBytes`
    /// (the response stream counts what it delivers) and more than ``ContentDecoders/maxLayers``
    /// codings are refused, as on every transport.
    static let decodedContentCodings = HTTPResponse.decodedContentCodings.union(["br", "zstd"])

    /// The number of body bytes the head promises, when URLSession hands us exactly those bytes:
    /// not for `HEAD`, 1xx/204/304, content-encoded bodies (URLSession decodes them) or chunked ones.
    static func declaredBodyBytes(of head: HTTPResponse, method: HTTPRequest.Method) -> Int64? {
        guard method != .head, head.status.code >= 200, head.status.code != 204, head.status.code != 304,
            !head.headerFields.containsField(named: .transferEncoding)
        else { return nil }
        if let encoding = head.headerFields[.contentEncoding], encoding.lowercased() != "identity" { return nil }
        guard let text = head.headerFields[.contentLength], let length = Int64(text), length >= 0 else { return nil }
        return length
    }

    /// Splits a `Set-Cookie` value that URLSession joined with ", ".
    static func splitSetCookie(_ joined: String) -> [String] {
        var cookies: [String] = []
        var current = Substring(joined)
        var searchStart = current.startIndex
        while let separator = current[searchStart...].range(of: ", ") {
            let rest = current[separator.upperBound...]
            if startsWithCookieName(rest) {
                cookies.append(String(current[..<separator.lowerBound]))
                current = rest
                searchStart = current.startIndex
            } else {
                searchStart = separator.upperBound
            }
        }
        cookies.append(String(current))
        return cookies
    }

    /// `true` when `text` begins with a token followed by `=`.
    private static func startsWithCookieName(_ text: Substring) -> Bool {
        var sawToken = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: "=") { return sawToken }
            let isToken =
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                || "!#$%&'*+-.^_`|~".utf8.contains(byte)
            guard isToken else { return false }
            sawToken = true
        }
        return false
    }
}
