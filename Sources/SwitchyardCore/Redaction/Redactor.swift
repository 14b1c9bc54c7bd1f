public import HTTPTypes

/// Hides one exchange's secrets in everything written about it off the wire (log lines, a `curl`
/// command): redacted header values, redacted query parameter values, and those same values
/// wherever else they would appear (an echoed body, a `Location`).
///
/// ```swift
/// var redactor = Redactor(redaction: .standard, request: request.head)
/// redactor.learnSecrets(from: response.head.headerFields)   // e.g. a `Set-Cookie`
/// print(redactor.masking(bodyText))
/// ```
public struct Redactor: Sendable {
    static let mask = QueryRedaction.mask
    /// Query values shorter than this are masked in the URL but not hunted elsewhere: with common
    /// names such as `code` or `key` redacted by default, masking `1` or `abc` everywhere would
    /// garble status codes and lengths.
    static let shortestHuntedQueryValue = 4
    /// Lower-cased names of the header fields whose values are hidden.
    let redactedHeaders: Set<String>
    /// The query parameters whose values are hidden.
    let queryRedaction: QueryRedaction
    /// The secret values of this exchange, longest first so overlapping values mask fully.
    private(set) var secrets: [String] = []

    /// A redactor for the exchange of `request`, hiding what `redaction` names.
    /// - Parameters:
    ///   - redaction: The header fields and query parameters whose values are secret.
    ///   - request: The request head whose secret values are hunted everywhere else.
    public init(redaction: Redaction, request: HTTPRequest) {
        self.init(redactedHeaders: redaction.headers, queryRedaction: redaction.queryParameters, request: request)
    }

    /// A redactor hiding the values of `redactedHeaders` (lower-cased names) and of the query
    /// parameters `queryRedaction` names, in the exchange of `request`.
    /// - Parameters:
    ///   - redactedHeaders: Lower-cased header field names whose values are secret.
    ///   - queryRedaction: The query parameters whose values are secret.
    ///   - request: The request head whose secret values are hunted everywhere else.
    public init(redactedHeaders: Set<String>, queryRedaction: QueryRedaction, request: HTTPRequest) {
        self.redactedHeaders = redactedHeaders
        self.queryRedaction = queryRedaction
        learnSecrets(from: request.headerFields)
        for (name, value) in QueryRedaction.queryItems(of: request.path ?? "")
        where value.count >= Self.shortestHuntedQueryValue && queryRedaction.isRedacted(name) {
            secrets.append(String(value))
        }
        secrets.sort { $0.count > $1.count }
    }

    /// Remembers redacted values of `fields` (e.g. a response's `Set-Cookie`).
    /// - Parameter fields: Header fields whose redacted values become secrets too.
    public mutating func learnSecrets(from fields: HTTPFields) {
        for field in fields where isRedacted(field.name) && !field.value.isEmpty {
            secrets.append(field.value)
            // "Bearer abc": the credential alone can appear elsewhere too.
            if let space = field.value.lastIndex(of: " "), field.value.distance(from: space, to: field.value.endIndex) > 4 {
                secrets.append(String(field.value[field.value.index(after: space)...]))
            }
        }
        secrets.sort { $0.count > $1.count }
    }

    /// Whether the values of field `name` are hidden.
    /// - Parameter name: The field name.
    public func isRedacted(_ name: HTTPField.Name) -> Bool {
        redactedHeaders.contains(name.canonicalName)
    }

    /// The field's value as it may be logged (a `Location` with its credential query values masked).
    /// - Parameter field: The field.
    public func value(of field: HTTPField) -> String {
        isRedacted(field.name) ? Self.mask : masking(queryRedaction.value(of: field))
    }

    /// `text` with every secret of this exchange replaced by `<redacted>`.
    /// - Parameter text: Any text about the exchange.
    public func masking(_ text: String) -> String {
        secrets.reduce(text) { text, secret in text.replacingAll(secret, with: Self.mask) }
    }

    /// The request's URL with redacted query values masked and no user info.
    /// - Parameter head: The request head.
    public func url(of head: HTTPRequest) -> String {
        masking(queryRedaction.url(of: head))
    }
}

extension String {
    /// Every occurrence of `target` replaced with `replacement` (no Foundation needed).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, contains(target) else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
