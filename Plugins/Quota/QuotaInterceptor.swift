import SwitchyardCore

/// Spends each call's cost from the quota before the call goes on: once per call (a call link), so
/// retries and redirects of a call cost nothing more.
struct QuotaInterceptor: Interceptor {
    let department: String
    let quota: Quota
    let warnAtOrBelow: Int

    nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        let cost = request.options.quotaCost
        switch quota.spend(cost) {
        case .refused(let remaining, let retryAfter):
            throw SwitchyardError.quotaExceeded(
                department: department, cost: cost, remaining: remaining, retryAfter: retryAfter)
        case .spent(let remaining):
            if remaining <= warnAtOrBelow, remaining + cost > warnAtOrBelow {
                context.publish(.plugin(QuotaLow(department: department, remaining: remaining)), request: request)
            }
        }
        return try await next(request)
    }
}
