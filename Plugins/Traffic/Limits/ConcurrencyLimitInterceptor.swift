import HTTPTypes
public import SwitchyardCore

/// Enforces ``ConcurrencyLimits``: the last link before the transport, so each attempt waits for a
/// slot right before it goes on the wire and holds it until its response body is done.
///
/// ``SwitchyardCore/Plugin/concurrencyLimit(_:)`` places it there; with bare interceptors, put it last.
public struct ConcurrencyLimitInterceptor: Interceptor {
    /// The slots and queue shared by every copy of this interceptor.
    public let limiter: ConcurrencyLimiter

    /// Creates the interceptor.
    /// - Parameter limiter: The limiter whose slots it takes (share one per client).
    public init(limiter: ConcurrencyLimiter) {
        self.limiter = limiter
    }

    /// Waits for a slot (in priority order), sends the request, and ties the slot to the response body.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The exchange context.
    ///   - next: The transport (or what is left of the chain).
    /// - Returns: The response; its body gives the slot back when it ends.
    /// - Throws: `SwitchyardError.Kind.cancelled` or `SwitchyardError.Kind.timeout` while queued,
    ///   or the rest of the chain's error.
    public nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        guard limiter.limits.scope == .all || limiter.limits.scope.matches(request) else { return try await next(request) }
        let slot = try await context.passLimit { queued throws(SwitchyardError) in
            try await limiter.acquire(
                host: request.head.authority ?? "", priority: request.options.priority, deadline: context.deadline,
                queued: queued)
        }
        let response: Response
        do {
            response = try await next(request)
        } catch {
            slot.release()
            throw error
        }
        guard let body = response.body, body.bufferedBytes == nil else {
            slot.release()
            return response
        }
        var tied = response
        tied.body = body.tapped(by: slot)
        return tied
    }
}
