public import SwitchyardCore

/// Lets callers of identical requests share one exchange while it is in flight (see
/// ``CoalescingPolicy`` for what is identical, who joins, slow readers and cancellation).
///
/// Through ``SwitchyardCore/Plugin/coalescing(_:)`` it is the call link right after the department plugins: every
/// caller still passes through the links above it (events, timing statistics, headers, the app's
/// and plugins' call interceptors), so each caller publishes its own events and counts in statistics; the links below (validation, size limit, redirects, retry and every
/// attempt link) run once, for the shared exchange.
///
/// A follower's context carries ``SwitchyardCore/ExchangeContext/coalescedWith`` (the leader's exchange id, also
/// read from its events as ``SwitchyardCore/ExchangeEvent/coalescedWith``), and it publishes ``Coalesced`` when it
/// joins.
///
/// For a request that is not eligible, the link checks the request's override, body, method and
/// scopes, and calls `next`: no key is built.
public struct CoalescingInterceptor: Interceptor {
    /// Which requests coalesce, and the per-caller buffer.
    public let policy: CoalescingPolicy
    private let registry: CoalescingRegistry

    /// Creates the link; its exchanges are shared by every call that goes through it.
    /// - Parameter policy: Which requests coalesce.
    public init(policy: CoalescingPolicy) {
        self.policy = policy
        self.registry = CoalescingRegistry(maxBufferedBytesPerCaller: policy.maxBufferedBytesPerCaller)
    }

    /// Joins the identical exchange in flight, or starts one that others may join.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The caller's context.
    ///   - next: The rest of the chain (run once per shared exchange, with the leader's context).
    /// - Returns: The caller's own response, with its own body.
    /// - Throws: The shared exchange's failure; `SwitchyardError.Kind.cancelled` when this caller
    ///   is cancelled.
    public nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        guard policy.isEligible(request) else { return try await next(request) }
        let membership = registry.join(
            CoalescingKey(request.head, additionalFields: policy.additionalKeyFields),
            context: context)
        let exchange = membership.exchange
        if membership.isLeader {
            exchange.start(request, next: next)
            return try await exchange.response(for: membership.token)
        }
        context[CoalescedWithKey.self] = exchange.leader.id
        context.publish(.plugin(Coalesced(leader: exchange.leader.id)), request: request)
        let joinedAt = ContinuousClock.now
        defer { context.recordStage(PipelineTimings.coalescedStage, joinedAt.duration(to: .now)) }
        return try await exchange.response(for: membership.token)
    }
}
