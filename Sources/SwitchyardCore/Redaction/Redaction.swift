/// What is hidden when a request is shown off the wire (a log line, a `curl` command of
/// `SwitchyardObservability`): the values of credential header fields and of credential query
/// parameters, and those same values wherever else they appear (a body).
///
/// ```swift
/// var redaction = Redaction.standard
/// redaction.headers.insert("x-api-key")
/// let redactor = Redactor(redaction: redaction, request: request.head)
/// print(redactor.url(of: request.head))
/// ```
public struct Redaction: Sendable, Hashable {
    /// The defaults: `Authorization`, `Cookie`, `Set-Cookie`,
    /// `Proxy-Authorization`, and ``defaultQueryParameters``.
    public static let standard = Redaction()
    /// Nothing hidden: for a command you run yourself, never for one you share.
    public static let none = Redaction(headers: [], queryParameters: [])

    /// Header fields whose values are never logged or recorded: `Authorization`, `Cookie`, `Set-Cookie`,
    /// `Proxy-Authorization`.
    public static let defaultHeaders: Set<String> = ["authorization", "cookie", "set-cookie", "proxy-authorization"]

    /// Query parameter names (lowercase; compared case-insensitively) whose values are never
    /// logged or recorded: common credential names such as `token`, `access_token`, `api_key`,
    /// `password`, `client_secret`, `signature`, `code`, and the presigned-URL parameters of
    /// S3 (`X-Amz-Signature`, `X-Amz-Credential`, `X-Amz-Security-Token`) and Cloud Storage
    /// (`X-Goog-Signature`, `X-Goog-Credential`).
    public static let defaultQueryParameters: Set<String> = [
        "token", "access_token", "refresh_token", "id_token", "auth_token",
        "api_key", "apikey", "api-key", "key",
        "password", "passwd", "secret", "client_secret",
        "signature", "sig", "auth", "session", "code",
        "x-amz-signature", "x-amz-credential", "x-amz-security-token",
        "x-goog-signature", "x-goog-credential"
    ]

    /// Lower-cased names of the header fields whose values are replaced by `<redacted>`.
    public var headers: Set<String>
    /// The query parameters whose values are replaced by `<redacted>`.
    public var queryParameters: QueryRedaction

    /// Creates a redaction.
    /// - Parameters:
    ///   - headers: Header field names to hide, in any case (default: ``defaultHeaders``).
    ///   - queryParameters: Query parameter names to hide, in any case (default: ``defaultQueryParameters``).
    public init(
        headers: some Sequence<String> = Redaction.defaultHeaders,
        queryParameters: some Sequence<String> = Redaction.defaultQueryParameters
    ) {
        self.headers = Set(headers.map { $0.lowercased() })
        self.queryParameters = QueryRedaction(parameterNames: queryParameters)
    }
}
