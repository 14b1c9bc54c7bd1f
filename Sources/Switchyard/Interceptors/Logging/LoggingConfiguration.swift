public import Logging

/// What ``LoggingInterceptor`` logs, where, and what it never reveals.
///
/// ```swift
/// var logging = LoggingConfiguration(logger: Logger(label: "shop.network"))
/// logging.redactedHeaders.insert("x-api-key")
/// logging.redactedQueryParameters.insert("shop_pin")      // more names, besides the defaults
/// logging.redactedQueryParameters.remove("code")         // or opt out of one (`= []`: of all)
/// var configuration = ClientConfiguration()
/// configuration.logging = logging
/// ```
public struct LoggingConfiguration: Sendable {
    /// Header fields whose values are never logged: `Authorization`, `Cookie`, `Set-Cookie`,
    /// `Proxy-Authorization`.
    public static let defaultRedactedHeaders: Set<String> = ["authorization", "cookie", "set-cookie", "proxy-authorization"]

    /// Query parameter names (lowercase; compared case-insensitively) whose values are never
    /// logged or recorded: common credential names such as `token`, `access_token`, `api_key`,
    /// `password`, `client_secret`, `signature`, `code`, and the presigned-URL parameters of
    /// S3 (`X-Amz-Signature`, `X-Amz-Credential`, `X-Amz-Security-Token`) and Cloud Storage
    /// (`X-Goog-Signature`, `X-Goog-Credential`).
    public static let defaultRedactedQueryParameters: Set<String> = [
        "token", "access_token", "refresh_token", "id_token", "auth_token",
        "api_key", "apikey", "api-key", "key",
        "password", "passwd", "secret", "client_secret",
        "signature", "sig", "auth", "session", "code",
        "x-amz-signature", "x-amz-credential", "x-amz-security-token",
        "x-goog-signature", "x-goog-credential"
    ]

    /// Where lines go; its log level decides how much is logged (info: one line per attempt;
    /// debug: headers and body previews; trace: a `curl` command too).
    public var logger: Logger
    /// Header names (any case) whose values are written as `<redacted>`.
    public var redactedHeaders: Set<String>
    /// Query parameter names (any case) whose values are written as `<redacted>`; starts as
    /// ``defaultRedactedQueryParameters`` plus the names given to the initializer. Assign `[]`
    /// (or remove names) to log those values.
    public var redactedQueryParameters: Set<String>
    /// The most body bytes previewed at debug level.
    public var bodyPreviewBytes: Int

    /// Creates a configuration.
    /// - Parameters:
    ///   - logger: Where lines go.
    ///   - redactedHeaders: Header names to redact, added to the defaults.
    ///   - redactedQueryParameters: Query parameter names to redact, added to the defaults.
    ///   - bodyPreviewBytes: The most body bytes previewed (default 1 KiB).
    public init(
        logger: Logger, redactedHeaders: Set<String> = [], redactedQueryParameters: Set<String> = [],
        bodyPreviewBytes: Int = 1024
    ) {
        self.logger = logger
        self.redactedHeaders = Self.defaultRedactedHeaders.union(redactedHeaders.map { $0.lowercased() })
        self.redactedQueryParameters = Self.defaultRedactedQueryParameters.union(redactedQueryParameters.map { $0.lowercased() })
        self.bodyPreviewBytes = max(0, bodyPreviewBytes)
    }
}
