import HTTPTypes
public import SwitchyardCore

/// The link that runs a ``CircuitBreaker``: it fails requests to an open host fast and counts the
/// outcome of every other attempt.
///
/// ``SwitchyardCore/Plugin/circuitBreaker(_:)`` places it first among the attempt links. In a chain of bare
/// interceptors, put it below the
/// `RetryInterceptor` so that every attempt is counted:
///
/// ```swift
/// let breaker = CircuitBreaker(policy: .consecutiveFailures(5))
/// let client = Client(transport: CurlTransport(), interceptors: [
///     RetryInterceptor(), CircuitBreakerInterceptor(breaker: breaker), loggingInterceptor,
/// ])
/// ```
///
/// An attempt refused by an open breaker throws ``SwitchyardCore/SwitchyardError/Kind/circuitOpen`` without
/// calling `next`; an admitted attempt's outcome is classified by the policy (see
/// ``CircuitBreakerPolicy``) when its response head or its error comes back. The exchange whose
/// outcome opens or closes the breaker publishes the transition's event.
public struct CircuitBreakerInterceptor: Interceptor {
    /// The breaker (shared state) this link consults.
    public let breaker: CircuitBreaker

    /// Creates the link.
    /// - Parameter breaker: The breaker; share one instance between chains to share its state.
    public init(breaker: CircuitBreaker) {
        self.breaker = breaker
    }

    /// Fails fast when the request's host is open; otherwise sends it and counts the outcome.
    /// - Parameters:
    ///   - request: The attempt's request.
    ///   - context: The exchange context (events are published on its bus).
    ///   - next: The rest of the chain.
    /// - Returns: The response from further down the chain.
    /// - Throws: ``SwitchyardCore/SwitchyardError/Kind/circuitOpen``, or the error from further down the chain.
    public nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        guard breaker.watchesEveryRequest || breaker.policy.scope.matches(request) else { return try await next(request) }
        let key = breaker.key(for: request.head)
        if let fleet = breaker.fleet { publish(await fleet.look(at: key, breaker: breaker), key, request, context) }
        let ticket: CircuitTicket
        switch breaker.admit(key) {
        case .success(let admitted): ticket = admitted
        case .failure(let rejected): throw refusal(key, rejected.retryAfter, request)
        }
        if ticket.isProbe, let fleet = breaker.fleet {
            let (decision, news) = await fleet.claimProbe(key, breaker: breaker)
            publish(news, key, request, context)
            if case .refuse(let retryAfter) = decision { throw refusal(key, retryAfter, request) }
        }
        do {
            let response = try await next(request)
            await report(breaker.classify(status: response.head.status.code), key, ticket, request, context)
            return response
        } catch {
            await report(breaker.policy.classify(error: error.kind), key, ticket, request, context)
            throw error
        }
    }

    private func refusal(_ key: String, _ retryAfter: Duration, _ request: Request) -> SwitchyardError {
        var error = SwitchyardError.circuitOpen(host: key, retryAfter: retryAfter)
        error.request = request.head
        return error
    }

    private func report(
        _ outcome: CircuitOutcome, _ key: String, _ ticket: CircuitTicket, _ request: Request, _ context: ExchangeContext
    ) async {
        let transition = breaker.record(outcome, key: key, ticket: ticket)
        switch transition {
        case .opened(let retryAfter)?: context.publish(.plugin(CircuitOpened(host: key, retryAfter: retryAfter)), request: request)
        case .closed?: context.publish(.plugin(CircuitClosed(host: key)), request: request)
        case nil: break
        }
        guard let fleet = breaker.fleet else { return }
        let openedHere = if case .opened? = transition { true } else { false }
        let news = await fleet.report(outcome, key: key, ticket: ticket, openedHere: openedHere, breaker: breaker)
        publish(news, key, request, context)
    }

    private func publish(_ news: FleetCircuits.News, _ key: String, _ request: Request, _ context: ExchangeContext) {
        if let failure = news.storeFailure { context.publish(.plugin(CircuitStoreFailed(host: key, message: failure)), request: request) }
        if let openFor = news.opened { context.publish(.plugin(CircuitOpened(host: key, retryAfter: openFor)), request: request) }
        if news.closed { context.publish(.plugin(CircuitClosed(host: key)), request: request) }
    }
}
