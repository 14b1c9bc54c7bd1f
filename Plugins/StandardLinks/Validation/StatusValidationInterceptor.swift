import HTTPTypes
public import SwitchyardCore

/// Turns a response whose status ``StatusValidation`` does not accept into an
/// `SwitchyardError.Kind.httpStatus` error carrying the response head and a short body preview.
///
/// It sits at the call position, after retry and redirects have had their say, so a 503 that the
/// retry policy retried and still got is reported once, as the call's failure. When the retry
/// budget refused to retry it, the message says so (``RetryBudgetRefused/explanation``).
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

    /// Passes accepted responses through and throws for the others; a request's own
    /// ``SwitchyardCore/RequestOptions/validation`` replaces ``validation`` for that request.
    public nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        let validation = request.options.validation ?? self.validation
        let response = try await next(request)
        guard !validation.accepts(response.head.status) else { return response }
        // The rejection runs out of line: inlined, it made this link's async frame over 1 KB per call.
        throw await rejection(of: response, to: request, validation: validation, context: context)
    }

    /// The `httpStatus` error for a response `validation` rejects, with its body's excerpt.
    @inline(never)
    private nonisolated(nonsending) func rejection(
        of response: Response, to request: Request, validation: StatusValidation, context: ExchangeContext
    ) async -> SwitchyardError {
        let excerpt = await Self.excerpt(of: response.body, upTo: max(validation.bodyPreviewBytes, validation.keptBodyBytes))
        let preview = excerpt.preview(upTo: validation.bodyPreviewBytes)
        var message =
            "The server answered \(response.head.status.code)"
            + " \(response.head.status.reasonPhrase)" + (preview.isEmpty ? "." : ": \(preview)")
        if let refusal = context.retryBudgetRefusal, refusal.status == response.head.status.code {
            message += (message.hasSuffix(".") ? " " : ". ") + refusal.explanation
        }
        var error = SwitchyardError(.httpStatus, message)
        error.response = response.head
        error.request = request.head
        error.attempt = context.attempt
        if validation.keptBodyBytes > 0 {
            error.responseBody = ResponseBodyExcerpt(
                bytes: Array(excerpt.bytes.prefix(validation.keptBodyBytes)),
                isComplete: excerpt.isComplete && excerpt.bytes.count <= validation.keptBodyBytes)
        }
        return error
    }

    /// Up to `limit` bytes of the body, without reading more.
    private static func excerpt(of body: HTTPBody?, upTo limit: Int) async -> ResponseBodyExcerpt {
        guard let body, limit > 0 else { return ResponseBodyExcerpt(bytes: [], isComplete: body == nil) }
        var bytes: [UInt8] = []
        var complete = true
        do {
            var iterator = body.makeAsyncIterator()
            while let chunk = try await iterator.next() {
                let room = limit - bytes.count
                bytes.append(contentsOf: chunk.prefix(room))
                if chunk.count > room {
                    complete = false
                    break
                }
                if bytes.count == limit {
                    complete = try await iterator.next() == nil
                    break
                }
            }
        } catch {
            // An excerpt is best effort: the status is the error.
            complete = false
        }
        return ResponseBodyExcerpt(bytes: bytes, isComplete: complete)
    }
}
