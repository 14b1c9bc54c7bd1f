import HTTPTypes
public import SwitchyardCore

/// Enforces ``RateLimits``: each attempt takes a token from its bucket right before the
/// concurrency limiter and the transport, waiting in the bucket's queue while there is none.
///
/// ``SwitchyardCore/Plugin/rateLimit(_:name:)`` places it there; with bare interceptors, put it below the
/// `RetryInterceptor` and above a ``ConcurrencyLimitInterceptor`` (so that a request waiting for
/// a token holds no slot).
public struct RateLimitInterceptor: Interceptor {
    /// The buckets and queues shared by every copy of this interceptor.
    public let limiter: RateLimiter

    /// Creates the interceptor.
    /// - Parameter limiter: The limiter whose tokens it takes (share one per client, or between
    ///   clients that share a quota).
    public init(limiter: RateLimiter) {
        self.limiter = limiter
    }

    /// Waits for a token (in priority order), then sends the request; a `429` or `503` answer with
    /// `Retry-After` holds the bucket (``RateLimits/maxRetryAfterHold``).
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The exchange context.
    ///   - next: The rest of the chain.
    /// - Returns: The response.
    /// - Throws: `SwitchyardError.Kind.cancelled` or `SwitchyardError.Kind.timeout` while queued,
    ///   the fleet ledger's error when it fails and ``RateLimitSharing/Fallback/refuse`` is set, or
    ///   the rest of the chain's error.
    public nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        guard limiter.limitsEveryRequest || limiter.limits.scope.matches(request) else { return try await next(request) }
        let key = limiter.key(for: request.head)
        let fallback = try await context.passLimit { queued throws(SwitchyardError) in
            try await limiter.acquire(key: key, priority: request.options.priority, deadline: context.deadline, queued: queued)
        }
        if let fallback {
            if fallback.reports {
                let event = RateLimitLedgerFailed(bucket: key, message: fallback.error.message, usedLocalBuckets: !fallback.refused)
                context.publish(.plugin(event), request: request)
            }
            if fallback.refused {
                var error = fallback.error
                error.request = request.head
                throw error
            }
        }
        let response = try await next(request)
        if let hold = limiter.hold(askedBy: response.head) {
            await limiter.hold(key, for: hold)
            context.publish(.plugin(RateLimitHeld(host: HostKey.of(request.head), duration: hold)), request: request)
        }
        return response
    }
}
