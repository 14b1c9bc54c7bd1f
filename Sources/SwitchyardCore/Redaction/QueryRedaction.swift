public import HTTPTypes

/// Masks the values of credential query parameters in a URL or request target: the one rule that
/// log lines, HAR files, events, recordings and the `yard` command all apply before they write a URL.
///
/// ```swift
/// let redaction = QueryRedaction()   // Redaction.defaultQueryParameters
/// redaction.redact("https://ada:pw@api.example.com/items?page=2&access_token=abc")
/// // "https://api.example.com/items?page=2&access_token=<redacted>"
/// ```
///
/// Parameter names are compared case-insensitively after percent-decoding (`API%5FKEY` is `api_key`);
/// only the value is masked, so the URL keeps its shape.
public struct QueryRedaction: Sendable, Hashable {
    /// The text written in place of a masked value: `<redacted>`.
    public static let mask = "<redacted>"
    /// Masks ``Redaction/defaultQueryParameters``.
    public static let standard = QueryRedaction()

    /// Header fields whose values are URLs, masked with ``redact(_:)`` by ``value(of:)``.
    static let urlValuedFields: Set<HTTPField.Name> = [.location, .contentLocation, .referer]

    /// The parameter names whose values are masked, lowercased.
    public let parameterNames: Set<String>

    /// The request's URL (scheme, authority without user information, target) with the values of
    /// the redacted query parameters masked.
    /// - Parameter head: The request head.
    public func url(of head: HTTPRequest) -> String {
        "\(head.scheme ?? "http")://\(RequestOrigin.hostAndPort(of: head.authority))\(redact(head.path ?? "/"))"
    }

    /// Creates a redaction.
    /// - Parameter parameterNames: The parameter names (any case) whose values are masked; an empty
    ///   list masks nothing.
    public init(parameterNames: some Sequence<String> = Redaction.defaultQueryParameters) {
        self.parameterNames = Set(parameterNames.map { $0.lowercased() })
    }

    /// Whether the value of a parameter named `name` (raw, as in the URL) is masked.
    /// - Parameter name: The parameter name, possibly percent-encoded.
    /// - Returns: `true` when its decoded, lowercased form is one of ``parameterNames``.
    public func isRedacted(_ name: some StringProtocol) -> Bool {
        guard !parameterNames.isEmpty else { return false }
        return parameterNames.contains(String(decoding: name.percentDecodedBytes, as: UTF8.self).lowercased())
    }

    /// `url` with the value of every redacted query parameter replaced by ``mask`` and, for an
    /// absolute URL, any user information (`user:password@`) removed.
    /// - Parameter url: An absolute URL (`https://host/path?query`) or a request target (`/path?query`).
    /// - Returns: The text safe to log or record; unchanged when there is nothing to hide.
    public func redact(_ url: String) -> String {
        // Byte scans, not Character scans: this runs for every logged request.
        let text = Self.removingUserInformation(url)
        guard !parameterNames.isEmpty, let question = text.utf8.firstIndex(of: UInt8(ascii: "?")) else { return String(text) }
        let queryEnd = text[question...].firstIndex(of: "#") ?? text.endIndex
        let query = text[text.index(after: question)..<queryEnd]
        var changed = false
        let items = query.split(separator: "&", omittingEmptySubsequences: false).map { item -> Substring in
            guard let equals = item.firstIndex(of: "="), isRedacted(item[..<equals]) else { return item }
            changed = true
            return item[...equals] + Self.mask
        }
        guard changed else { return String(text) }
        return String(text[...question]) + items.joined(separator: "&") + text[queryEnd...]
    }

    /// The field's value as it may be written: ``redact(_:)`` applied to URL-valued fields
    /// (`Location`, `Content-Location`, `Referer`), other values unchanged.
    /// - Parameter field: A request or response header field.
    /// - Returns: The value to write.
    public func value(of field: HTTPField) -> String {
        Self.urlValuedFields.contains(field.name) ? redact(field.value) : field.value
    }

    /// The query of `target` as `(name, value)` pairs in order, raw as in the URL (not
    /// percent-decoded); an item without `=` has an empty value.
    /// - Parameter target: A URL or request target; the query ends at `#`.
    /// - Returns: The pairs; empty when there is no query.
    public static func queryItems(of target: some StringProtocol) -> [(name: Substring, value: Substring)] {
        let target = Substring(target)
        guard let question = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return [] }
        let queryEnd = target[question...].firstIndex(of: "#") ?? target.endIndex
        return target[target.index(after: question)..<queryEnd].split(separator: "&").map { item in
            guard let equals = item.firstIndex(of: "=") else { return (item, item[item.endIndex...]) }
            return (item[..<equals], item[item.index(after: equals)...])
        }
    }

    /// An absolute URL without the user information of its authority; anything else unchanged.
    private static func removingUserInformation(_ url: String) -> Substring {
        let text = Substring(url)
        guard text.utf8.contains(UInt8(ascii: "@")), let separator = text.firstRange(of: "://"),
            !text[..<separator.lowerBound].isEmpty,
            !text[..<separator.lowerBound].contains(where: { "/?#".contains($0) })
        else { return text }
        let authorityStart = separator.upperBound
        let authorityEnd = text[authorityStart...].firstIndex { "/?#".contains($0) } ?? text.endIndex
        guard let at = text[authorityStart..<authorityEnd].lastIndex(of: "@") else { return text }
        return text[..<authorityStart] + text[text.index(after: at)...]
    }
}
