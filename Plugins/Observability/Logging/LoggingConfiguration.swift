public import Logging
import SwitchyardCore

/// What ``LoggingInterceptor`` logs, where, and what it never reveals.
///
/// ```swift
/// var logging = LoggingConfiguration(logger: Logger(label: "shop.network"))
/// logging.redactedHeaders.insert("x-api-key")
/// logging.redactedQueryParameters.insert("shop_pin")      // more names, besides the defaults
/// logging.redactedQueryParameters.remove("code")         // or opt out of one (`= []`: of all)
/// var configuration = ClientConfiguration()
/// configuration.plugins.append(.logging(logging))
/// ```
public struct LoggingConfiguration: Sendable {
    /// Header field names (lowercase) whose values are never logged: `Redaction.defaultHeaders`.
    public static let defaultRedactedHeaders: Set<String> = Redaction.defaultHeaders

    /// Query parameter names (lowercase; compared case-insensitively) whose values are never
    /// logged or recorded: `Redaction.defaultQueryParameters`.
    public static let defaultRedactedQueryParameters: Set<String> = Redaction.defaultQueryParameters

    /// Where lines go, unless a request has its own logger (`RequestOptions.logger`); its log level
    /// decides how much is logged (debug: one line per attempt; trace: headers, body previews and
    /// a `curl` command too).
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
