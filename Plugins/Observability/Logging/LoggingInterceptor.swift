import HTTPTypes
import Logging
public import SwitchyardCore

/// Logs each attempt through swift-log at the levels a library logs at, never revealing secrets.
///
/// - `.debug`: one line per attempt when its head arrives or it fails:
///   `GET https://api.example.com/users?token=<redacted> → 200 in 12.4 ms (attempt 1)`.
/// - `.trace`: besides, a copy-pasteable `curl` command for the attempt, the request and response
///   header fields, and body previews (up to ``LoggingConfiguration/bodyPreviewBytes``). A body
///   preview is copied as the bytes pass, so a one-shot stream is never consumed by logging; the
///   response preview is logged when its body ends, fails or is dropped.
///
/// A request with its own logger (`RequestOptions.logger`) is logged there, at that logger's level.
///
/// `Authorization`, `Cookie`, `Set-Cookie`, `Proxy-Authorization` and the configured headers and
/// query parameters are written as `<redacted>` at every level, and their values are masked
/// wherever else they would appear (e.g. a body that echoes them). Exchange id, attempt and tags go
/// into the logger's metadata.
///
/// In an assembled client (``SwitchyardCore/Plugin/logging(_:)``) it is an attempt link below the departments' and the app's, so it logs
/// each request exactly as it goes on the wire.
///
/// ```swift
/// var configuration = ClientConfiguration()
/// configuration.plugins.append(.logging(LoggingConfiguration(logger: Logger(label: "shop.network"),
///                                                            redactedQueryParameters: ["token"])))
/// ```
public struct LoggingInterceptor: Interceptor {
    /// What and where to log.
    public let configuration: LoggingConfiguration
    /// The query redaction of ``configuration``, built once rather than per request.
    private let queryRedaction: QueryRedaction

    /// Creates the interceptor.
    /// - Parameter configuration: What and where to log.
    public init(configuration: LoggingConfiguration) {
        self.configuration = configuration
        self.queryRedaction = QueryRedaction(parameterNames: configuration.redactedQueryParameters)
    }

    /// Logs the attempt around the rest of the chain, to the request's own logger
    /// (`RequestOptions.logger`) when it has one, else the configuration's.
    public nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        let logger = request.options.logger ?? configuration.logger
        guard logger.logLevel <= .debug else { return try await next(request) }
        // Passed with each line rather than set on the logger: no copy of the handler, and the
        // values are formatted only by a handler that writes them.
        var metadata: Logger.Metadata = [
            "exchange": .stringConvertible(context.id),
            "attempt": .stringConvertible(context.attempt)
        ]
        if !request.options.tags.isEmpty { metadata["tags"] = "\(request.options.tags.sorted().joined(separator: ","))" }
        var redactor = Redactor(redactedHeaders: configuration.redactedHeaders, queryRedaction: queryRedaction, request: request.head)
        let line = "\(request.head.method) \(redactor.url(of: request.head))"
        let isTrace = logger.logLevel <= .trace
        var request = request
        if isTrace {
            logger.trace(
                "\(redactor.curlCommand(for: request, bodyPreviewBytes: configuration.bodyPreviewBytes))", metadata: metadata)
            logger.trace("→ \(line) headers: \(Self.render(request.head.headerFields, redactor))", metadata: metadata)
            if let body = request.body {
                request.body = body.tapped(by: preview("→ request body", logger: logger, metadata: metadata, redactor: redactor))
            }
        }
        let started = ContinuousClock.now
        var response: Response
        do {
            response = try await next(request)
        } catch {
            logger.debug(
                "\(line) → \(error.kind.rawValue) after \(Self.milliseconds(since: started)) (attempt \(context.attempt)): \(redactor.masking(error.message))",
                metadata: metadata)
            throw error
        }
        logger.debug(
            "\(line) → \(response.head.status.code) in \(Self.milliseconds(since: started)) (attempt \(context.attempt))",
            metadata: metadata)
        if isTrace {
            redactor.learnSecrets(from: response.head.headerFields)
            logger.trace("← \(response.head.status.code) headers: \(Self.render(response.head.headerFields, redactor))", metadata: metadata)
            if let body = response.body {
                response.body = body.tapped(by: preview("← response body", logger: logger, metadata: metadata, redactor: redactor))
            }
        }
        return response
    }

    private func preview(_ label: String, logger: Logger, metadata: Logger.Metadata, redactor: Redactor) -> BodyPreview {
        BodyPreview(limit: configuration.bodyPreviewBytes) { bytes, total, outcome in
            logger.trace(
                "\(label) (\(outcome), \(total) bytes): \(redactor.masking(BodyPreview.render(bytes, total: total)))", metadata: metadata)
        }
    }

    private static func render(_ fields: HTTPFields, _ redactor: Redactor) -> String {
        fields.map { "\($0.name.rawName): \(redactor.value(of: $0))" }.joined(separator: "; ")
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> String {
        let duration = start.duration(to: .now)
        let tenths = Int((duration.milliseconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) ms"
    }
}
