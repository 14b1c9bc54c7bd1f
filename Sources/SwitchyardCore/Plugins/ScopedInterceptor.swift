/// Runs an interceptor only for requests in a scope; other requests pass straight to `next`.
///
/// ```swift
/// let signing = ScopedInterceptor(scope: RequestScope(hosts: ["pay.example.com"]), SigningInterceptor())
/// ```
public struct ScopedInterceptor: Interceptor {
    /// The requests the wrapped interceptor sees.
    public let scope: RequestScope
    /// The wrapped interceptor.
    public let wrapped: any Interceptor

    /// Creates a scoped interceptor.
    /// - Parameters:
    ///   - scope: The requests `wrapped` sees.
    ///   - wrapped: The interceptor.
    public init(scope: RequestScope, _ wrapped: any Interceptor) {
        self.scope = scope
        self.wrapped = wrapped
    }

    /// Hands in-scope requests to the wrapped interceptor and the rest to `next`.
    public nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        guard scope.matches(request) else { return try await next(request) }
        return try await wrapped.intercept(request, context: context, next: next)
    }
}
