import HTTPTypes

/// Hides secrets in everything the logging interceptor writes: redacted header values, redacted
/// query parameter values, and those same values wherever else they would appear (an echoed body,
/// a `Location`), so a secret never reaches a log line at any level.
struct Redactor: Sendable {
    static let mask = "<redacted>"
    let configuration: LoggingConfiguration
    /// The secret values of this exchange, longest first so overlapping values mask fully.
    private(set) var secrets: [String] = []

    init(configuration: LoggingConfiguration, request: HTTPRequest) {
        self.configuration = configuration
        learnSecrets(from: request.headerFields)
        for (name, value) in Self.queryItems(of: request.path ?? "")
        where configuration.redactedQueryParameters.contains(name.lowercased()) && !value.isEmpty {
            secrets.append(String(value))
        }
        secrets.sort { $0.count > $1.count }
    }

    /// Remembers redacted values of `fields` (e.g. a response's `Set-Cookie`).
    mutating func learnSecrets(from fields: HTTPFields) {
        for field in fields where isRedacted(field.name) && !field.value.isEmpty {
            secrets.append(field.value)
            // "Bearer abc": the credential alone can appear elsewhere too.
            if let space = field.value.lastIndex(of: " "), field.value.distance(from: space, to: field.value.endIndex) > 4 {
                secrets.append(String(field.value[field.value.index(after: space)...]))
            }
        }
        secrets.sort { $0.count > $1.count }
    }

    func isRedacted(_ name: HTTPField.Name) -> Bool {
        configuration.redactedHeaders.contains(name.canonicalName)
    }

    /// The field's value as it may be logged.
    func value(of field: HTTPField) -> String {
        isRedacted(field.name) ? Self.mask : masking(field.value)
    }

    /// `text` with every secret of this exchange replaced by `<redacted>`.
    func masking(_ text: String) -> String {
        secrets.reduce(text) { text, secret in text.replacingAll(secret, with: Self.mask) }
    }

    /// The request's URL with redacted query values masked and no user info.
    func url(of head: HTTPRequest) -> String {
        let authority = head.authority.map { authority in
            authority.lastIndex(of: "@").map { String(authority[authority.index(after: $0)...]) } ?? authority
        } ?? ""
        let path = head.path ?? "/"
        guard let question = path.firstIndex(of: "?") else { return "\(head.scheme ?? "http")://\(authority)\(masking(path))" }
        let query = path[path.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false).map { item in
            let name = item.split(separator: "=", maxSplits: 1).first ?? ""
            return configuration.redactedQueryParameters.contains(name.lowercased()) ? "\(name)=\(Self.mask)" : String(item)
        }.joined(separator: "&")
        return "\(head.scheme ?? "http")://\(authority)\(masking(String(path[..<question])))?\(masking(query))"
    }

    static func queryItems(of path: String) -> [(Substring, Substring)] {
        guard let question = path.firstIndex(of: "?") else { return [] }
        return path[path.index(after: question)...].split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
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
