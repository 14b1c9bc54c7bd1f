/// A link that also hears of failures a layer above the chain finds after the exchange succeeded
/// on the wire (an API envelope's error code, a stream that broke off), reported with
/// ``Client/reportFailure(_:of:context:)``: as if the failure had come out of the chain, so a
/// feature that turns failures into something (a message for the user, a breaker's count) treats
/// both alike.
///
/// ```swift
/// struct FailureCounter: HearsLateFailures {
///     let failures: Counter
///     func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
///         do { return try await next(request) } catch { failures.increment(); throw error }
///     }
///     func hearLateFailure(_ error: SwitchyardError, of request: Request, context: ExchangeContext) {
///         failures.increment()
///     }
/// }
/// ```
public protocol HearsLateFailures: Interceptor {
    /// Handles a failure found above the chain; runs synchronously on the reporting task, innermost
    /// link first, before the `failed` (or `cancelled`) event is published.
    /// - Parameters:
    ///   - error: The failure.
    ///   - request: The request as the call made it.
    ///   - context: The exchange's context.
    func hearLateFailure(_ error: SwitchyardError, of request: Request, context: ExchangeContext)
}
