import HTTPTypes
public import SwitchyardCore

/// Turns a response whose status ``StatusValidation`` does not accept into an
/// ``SwitchyardError/Kind/httpStatus`` error carrying the response head and a short body preview.
///
/// It sits at the call position, after retry and redirects have had their say, so a 503 that the
/// retry policy retried and still got is reported once, as the call's failure.
///
/// ```swift
/// let client = Client(transport: CurlTransport(), interceptors: [StatusValidationInterceptor()])
/// // try await client.send(request) throws .httpStatus for a 404
/// ```
public struct StatusValidationInterceptor: Interceptor {
    /// What is accepted.
    public let validation: StatusValidation

    /// Creates the interceptor.
    /// - Parameter validation: What is accepted (default: 2xx and 3xx).
    public init(validation: StatusValidation = StatusValidation()) {
        self.validation = validation
    }

    /// Passes accepted responses through and throws for the others.
    public func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        let response = try await next(request)
        guard !validation.accepts(response.head.status) else { return response }
        let preview = await Self.preview(of: response.body, upTo: validation.bodyPreviewBytes)
        var error = SwitchyardError(
            .httpStatus,
            "The server answered \(response.head.status.code)"
                + " \(response.head.status.reasonPhrase)" + (preview.isEmpty ? "." : ": \(preview)"))
        error.response = response.head
        error.request = request.head
        error.attempt = context.attempt
        throw error
    }

    /// Up to `limit` bytes of the body as text (control characters replaced), without reading more.
    private static func preview(of body: HTTPBody?, upTo limit: Int) async -> String {
        guard let body, limit > 0 else { return "" }
        var bytes: [UInt8] = []
        do {
            for try await chunk in body {
                bytes.append(contentsOf: chunk.prefix(limit - bytes.count))
                if bytes.count >= limit { break }
            }
        } catch {
            // A preview is best effort: the status is the error.
        }
        let text = String(decoding: bytes, as: UTF8.self)
        return String(text.map { $0.isNewline || $0.asciiValue.map { $0 < 0x20 } == true ? " " : $0 })
    }
}
