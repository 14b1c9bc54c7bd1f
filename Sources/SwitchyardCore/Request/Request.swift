public import HTTPTypes

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// One HTTP request as it flows down the chain: the head, an optional body, and per-request options.
///
/// ```swift
/// var request = try Request(method: .post, url: "https://api.example.com/users",
///                           headers: ["Content-Type": "application/json"],
///                           body: HTTPBody(#"{"name":"Ada"}"#))
/// request.options.timeout = .seconds(10)
/// ```
public struct Request: Sendable {
    /// Method, scheme, authority, path and header fields.
    public var head: HTTPRequest {
        // Without `oldValue` the setter stays an in-place modification (no copy of the head).
        didSet { isValidated = false }
    }
    /// Whether ``head`` passed ``RequestValidator`` and has not been changed since, so that a
    /// client (or a link that makes a new request, such as one for another location) does not validate it twice.
    public private(set) var isValidated = false
    /// The request body, or `nil` for none.
    public var body: HTTPBody?
    /// Timeout, deadline, tags and other per-request settings.
    public var options: RequestOptions

    /// Creates a request from a head you built yourself.
    /// - Parameters:
    ///   - head: The request head.
    ///   - body: The body, if any.
    ///   - options: Per-request settings.
    public init(_ head: HTTPRequest, body: HTTPBody? = nil, options: RequestOptions = RequestOptions()) {
        self.head = head
        self.body = body
        self.options = options
    }

    /// Creates a request from a `URL`, validating it and the header fields as the form that takes
    /// a `String` does (credentials in the URL become an `Authorization: Basic` header).
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - url: An absolute `http` or `https` URL.
    ///   - headers: Header fields in order.
    ///   - body: The body, if any.
    ///   - options: Per-request settings.
    /// - Throws: ``SwitchyardError/Kind/invalidRequest`` as the `String` form does.
    public init(
        method: HTTPRequest.Method = .get,
        url: URL,
        headers: KeyValuePairs<String, String> = [:],
        body: HTTPBody? = nil,
        options: RequestOptions = RequestOptions()
    ) throws(SwitchyardError) {
        try self.init(method: method, url: url.absoluteString, headers: headers, body: body, options: options)
    }

    /// Replaces the fields with fields that are already valid, keeping the request's validated mark.
    /// - Parameter fields: Fields whose names and values passed validation.
    package mutating func setValidatedFields(_ fields: HTTPFields) {
        let validated = isValidated
        head.headerFields = fields
        isValidated = validated
    }

    /// Appends a field that is already valid, keeping the request's validated mark.
    /// - Parameter field: A field whose name and value passed validation.
    package mutating func appendValidatedField(_ field: HTTPField) {
        let validated = isValidated
        head.headerFields.append(field)
        isValidated = validated
    }

    /// Creates a request from a URL string and header name/value pairs, validating both.
    ///
    /// As curl does, user information in the URL (`https://ada:s%3Acret@host/`) becomes an
    /// `Authorization: Basic` header of the percent-decoded `user:password` (`ada:s:cret`), and the
    /// authority sent never contains it. An `Authorization` header in `headers` wins: the URL's
    /// credentials are then ignored.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - url: An absolute `http` or `https` URL.
    ///   - headers: Header fields in order; names and values are checked, nothing is silently altered.
    ///   - body: The body, if any.
    ///   - options: Per-request settings.
    /// - Throws: ``SwitchyardError/Kind/invalidRequest`` for a malformed URL, an unsupported scheme,
    ///   an illegal header name, or a header value containing CR, LF or NUL.
    public init(
        method: HTTPRequest.Method = .get,
        url: String,
        headers: KeyValuePairs<String, String> = [:],
        body: HTTPBody? = nil,
        options: RequestOptions = RequestOptions()
    ) throws(SwitchyardError) {
        guard let parsed = URL(string: url), parsed.host != nil else {
            throw .invalidRequest(
                "'\(QueryRedaction.standard.redact(url))' is not an absolute URL;"
                    + " write it as http://host/path or https://host/path.")
        }
        var fields = HTTPFields()
        for (name, value) in headers {
            fields.append(try HTTPField.validated(name: name, value: value))
        }
        // The byte scan keeps URL components parsing off the path of the URLs without user info.
        if fields[.authorization] == nil, url.utf8.contains(UInt8(ascii: "@")), let credentials = URLCredentials(parsed) {
            fields.append(HTTPField(name: .authorization, value: credentials.basicAuthorization))
        }
        self.init(HTTPRequest(method: method, url: parsed, headerFields: fields), body: body, options: options)
        try RequestValidator.validate(head)
        isValidated = true
    }
}

extension HTTPField {
    /// Creates a field only if the name is a valid token and the value holds no CR, LF or NUL.
    ///
    /// `HTTPField(name:value:)` silently turns illegal bytes into spaces; this refuses them instead,
    /// so a header-injection attempt becomes an error rather than a mangled header.
    /// - Parameters:
    ///   - name: The field name, e.g. `"X-Request-ID"`.
    ///   - value: The field value.
    /// - Returns: The field.
    /// - Throws: ``SwitchyardError/Kind/invalidRequest`` naming the offending header.
    public static func validated(name: String, value: String) throws(SwitchyardError) -> HTTPField {
        guard let fieldName = HTTPField.Name(name) else {
            throw .invalidRequest("'\(name)' is not a valid header name: use letters, digits and !#$%&'*+-.^_`|~ only.")
        }
        guard HTTPField.isValidValue(value) else {
            throw .invalidRequest(
                "The value of header '\(name)' contains CR, LF, NUL or another control character;"
                    + " such values could inject headers and are never sent.")
        }
        return HTTPField(name: fieldName, value: value)
    }
}
