public import Logging

/// What ``LoggingInterceptor`` logs, where, and what it never reveals.
///
/// ```swift
/// var logging = LoggingConfiguration(logger: Logger(label: "shop.network"))
/// logging.redactedHeaders.insert("x-api-key")
/// logging.redactedQueryParameters = ["token", "api_key"]
/// var configuration = ClientConfiguration()
/// configuration.logging = logging
/// ```
public struct LoggingConfiguration: Sendable {
    /// Header fields whose values are never logged: `Authorization`, `Cookie`, `Set-Cookie`,
    /// `Proxy-Authorization`.
    public static let defaultRedactedHeaders: Set<String> = ["authorization", "cookie", "set-cookie", "proxy-authorization"]

    /// Where lines go; its log level decides how much is logged (info: one line per attempt;
    /// debug: headers and body previews; trace: a `curl` command too).
    public var logger: Logger
    /// Header names (any case) whose values are written as `<redacted>`.
    public var redactedHeaders: Set<String>
    /// Query parameter names (any case) whose values are written as `<redacted>`.
    public var redactedQueryParameters: Set<String>
    /// The most body bytes previewed at debug level.
    public var bodyPreviewBytes: Int

    /// Creates a configuration.
    /// - Parameters:
    ///   - logger: Where lines go.
    ///   - redactedHeaders: Header names to redact, added to the defaults.
    ///   - redactedQueryParameters: Query parameter names to redact.
    ///   - bodyPreviewBytes: The most body bytes previewed (default 1 KiB).
    public init(
        logger: Logger, redactedHeaders: Set<String> = [], redactedQueryParameters: Set<String> = [],
        bodyPreviewBytes: Int = 1024
    ) {
        self.logger = logger
        self.redactedHeaders = Self.defaultRedactedHeaders.union(redactedHeaders.map { $0.lowercased() })
        self.redactedQueryParameters = Set(redactedQueryParameters.map { $0.lowercased() })
        self.bodyPreviewBytes = max(0, bodyPreviewBytes)
    }
}
