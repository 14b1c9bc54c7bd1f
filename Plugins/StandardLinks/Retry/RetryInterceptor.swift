import HTTPTypes
public import SwitchyardCore
import SwitchyardTransportKit

/// Sends a request again when an attempt fails in a way that is worth retrying, within one
/// deadline and a shared ``RetryBudget``.
///
/// ```swift
/// let client = Client(transport: CurlTransport(), interceptors: [
///     RedirectInterceptor(),
///     RetryInterceptor(policy: RetryPolicy(maxAttempts: 4, maxTotalDuration: .seconds(15))),
///     loggingInterceptor,          // sees every attempt as it goes on the wire
/// ])
///
/// // A POST is sent once unless it says repeating it is harmless:
/// var charge = try Request(method: .post, url: "https://api.example.com/charges",
///                          headers: ["Idempotency-Key": UUID().uuidString], body: HTTPBody(json))
/// let response = try await client.send(charge)
/// ```
///
/// What is retried, and when, is the ``RetryPolicy``'s business (statuses, connection failures,
/// idempotency, `Retry-After`, back-off with full jitter, one deadline, the app's own rule); a
/// request can change it through ``SwitchyardCore/RequestOptions/retry``. With ``RetryPolicy/idempotencyKeys``
/// set, the interceptor first gives a POST or PATCH without an `Idempotency-Key` one, the same for
/// every attempt of the call. For each attempt the interceptor:
/// - sets `ExchangeContext.attempt` (1-based) before calling the rest of the chain;
/// - after a retryable outcome, takes a retry from the ``RetryBudget`` (none left: the outcome is
///   final, ``RetryBudgetRefused`` is published and the error says so, see below), throws away the failed response's body (`HTTPBody.discard(drainingUpTo:)`),
///   records the wait in `PipelineTimings.backoffs`, publishes
///   a ``Retrying`` event and waits;
/// - stops waiting at once when the task is cancelled, throwing `SwitchyardError.Kind.cancelled`;
/// - with an `AttemptHold` in the context (`ExchangeContext.attemptHold`) that holds after a failed attempt
///   (the connectivity plugin's while offline), publishes its event and waits for it to lift
///   instead of the back-off (see ``RetryPolicy``), then retries at once.
///
/// When no retry follows, the caller gets the last outcome unchanged: the last response (e.g. the
/// final 503, with its body) or the last error, with `SwitchyardError.attempt` set. When the budget
/// refused the retry, the error's message ends with ``RetryBudgetRefused/explanation`` (its kind
/// stays what it was), and a response carries the refusal in
/// `ExchangeContext.retryBudgetRefusal`, which the ``StatusValidationInterceptor``
/// adds to the message of its `httpStatus` error. This also
/// holds when the next wait would cross the deadline: the interceptor does not sleep into a
/// certain timeout but returns what it has right away.
///
/// ### Position in the chain
///
/// Place it below the call-level interceptors and the ``RedirectInterceptor`` (so each redirect
/// hop is retried on its own) and above the per-attempt interceptors (logging, signing), which
/// then run once per attempt. Attempts are counted per pass: after a redirect, the next hop's
/// first attempt is attempt 1 again, while the deadline and the budget span the whole exchange.
public struct RetryInterceptor: Interceptor, RepeatsTheRestOfTheChain {
    /// The policy applied to every request (before a request's ``SwitchyardCore/RequestOptions/retry`` override).
    public let policy: RetryPolicy
    /// The budget shared by all requests through this interceptor and its copies; `nil` for none.
    public let budget: RetryBudget?

    /// Creates a retry interceptor.
    /// - Parameters:
    ///   - policy: When and how to retry.
    ///   - budget: The retry budget; by default a new ``RetryBudget`` owned by this interceptor.
    ///     Pass `nil` to retry without a budget.
    public init(policy: RetryPolicy = RetryPolicy(), budget: RetryBudget? = RetryBudget()) {
        self.policy = policy
        self.budget = budget
    }

    /// Sends `request`, retrying as the policy allows.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The exchange context; `ExchangeContext.attempt` is set per attempt.
    ///   - next: The rest of the chain, called once per attempt.
    /// - Returns: The first non-retried response, or the last one when retries are exhausted.
    /// - Throws: The last attempt's error, or `SwitchyardError.Kind.cancelled` during a wait.
    public nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        // The first attempt is all most calls make: it runs here, with every decision made in
        // synchronous helpers that are never inlined, and the retries run in a function of their
        // own. Inlined, the retry loop made this link's async frame about 10 KB, allocated per call.
        let (request, deadline) = prepare(request, context: context)
        context.attempt = 1
        let outcome = await Self.attempt(request, next: next, number: 1)
        guard case .retry(let wait, let why) = decide(after: outcome, of: request, attempt: 1, deadline: deadline)
        else { return try outcome.get() }
        return try await retry(
            after: outcome, wait: wait, reason: why, request: request, context: context, next: next, deadline: deadline)
    }

    /// The request as every attempt sends it (with an idempotency key when the policy gives one), and
    /// the deadline of all attempts.
    @inline(never)
    private func prepare(_ request: Request, context: ExchangeContext) -> (Request, ContinuousClock.Instant?) {
        budget?.recordRequest()
        // Without an override the link's own policy applies, not a copy of it (a copy retains its parts).
        guard let override = request.options.retry else { return Self.prepared(request, by: policy, context: context) }
        return Self.prepared(request, by: policy.applying(override), context: context)
    }

    /// `request` with the idempotency key `policy` gives it, and the deadline of all attempts.
    private static func prepared(
        _ request: Request, by policy: RetryPolicy, context: ExchangeContext
    ) -> (Request, ContinuousClock.Instant?) {
        let request = policy.idempotencyKeys.map { $0.keyed(request, context: context) } ?? request
        return (request, policy.deadline(for: context))
    }

    /// The decision after an attempt of the policy for `request` (with its override); out of line and
    /// without the policy in the caller's frame: see ``intercept(_:context:next:)``.
    @inline(never)
    private func decide(
        after outcome: Result<Response, SwitchyardError>, of request: Request, attempt: Int, deadline: ContinuousClock.Instant?
    ) -> RetryStep {
        guard let override = request.options.retry else {
            return policy.decision(after: outcome, of: request, attempt: attempt, deadline: deadline)
        }
        return policy.applying(override).decision(after: outcome, of: request, attempt: attempt, deadline: deadline)
    }

    /// Retries after attempt 1 decided to: waits (for the back-off, or for an attempt hold to lift)
    /// and sends again, as long as the policy and the budget allow.
    @inline(never)
    private nonisolated(nonsending) func retry(
        after first: Result<Response, SwitchyardError>, wait firstWait: Duration, reason firstReason: String,
        request: Request, context: ExchangeContext, next: Next, deadline: ContinuousClock.Instant?
    ) async throws -> Response {
        var decided: (outcome: Result<Response, SwitchyardError>, wait: Duration, reason: String)? = (
            first, firstWait, firstReason
        )
        var attempt = 1
        while true {
            let delay: Duration
            let reason: String
            do {
                // Scoped so that a discarded response (and any transfer behind its body) is
                // released before the wait, not after it.
                let outcome: Result<Response, SwitchyardError>
                let wait: Duration
                let why: String
                if let carried = decided.take() {
                    (outcome, wait, why) = carried
                } else {
                    context.attempt = attempt
                    let sent = await Self.attempt(request, next: next, number: attempt)
                    guard
                        case .retry(let nextWait, let nextWhy) = decide(
                            after: sent, of: request, attempt: attempt, deadline: deadline)
                    else { return try sent.get() }
                    (outcome, wait, why) = (sent, nextWait, nextWhy)
                }
                if case .failure = outcome, let hold = context.attemptHold, hold.isHolding {
                    // Waiting for the hold (the network) replaces the back-off: retrying into it would only burn attempts.
                    ActivityReporting.report(.waitingForAttempt(attempt + 1, delay: nil))
                    let waited = try await waitForHold(hold, request, context, deadline: deadline, attempt: attempt)
                    guard let waited else { return try outcome.get() }
                    if let budget, !budget.consumeRetry() {
                        return try refused(outcome, by: budget, reason: why, attempt: attempt, request, context)
                    }
                    context.recordStage(PipelineTimings.backoffStage, waited)
                    context.publish(.plugin(Retrying(attempt: attempt, delay: .zero, reason: why + "; the hold lifted")), request: request)
                    ActivityReporting.report(.running)
                    attempt += 1
                    continue
                }
                if let budget, !budget.consumeRetry() {
                    return try refused(outcome, by: budget, reason: why, attempt: attempt, request, context)
                }
                if case .success(let response) = outcome { await response.body?.discard() }
                (delay, reason) = (wait, why)
            }
            context.recordStage(PipelineTimings.backoffStage, delay)
            context.publish(.plugin(Retrying(attempt: attempt, delay: delay, reason: reason)), request: request)
            ActivityReporting.report(.waitingForAttempt(attempt + 1, delay: delay))
            try await Self.wait(delay, attempt: attempt)
            ActivityReporting.report(.running)
            attempt += 1
        }
    }

    /// The outcome of an attempt whose retry `budget` refused: publishes ``RetryBudgetRefused``,
    /// and returns the response (leaving the event in `ExchangeContext.retryBudgetRefusal`
    /// for the status validation's error) or throws the error with the refusal in its message.
    private func refused(
        _ outcome: Result<Response, SwitchyardError>, by budget: RetryBudget, reason: String, attempt: Int,
        _ request: Request, _ context: ExchangeContext
    ) throws(SwitchyardError) -> Response {
        let status = try? outcome.get().head.status.code
        let refusal = RetryBudgetRefused(attempt: attempt, reason: reason, status: status, budget: budget)
        context.publish(.plugin(refusal), request: request)
        switch outcome {
        case .success(let response):
            context.retryBudgetRefusal = refusal
            return response
        case .failure(var error):
            error.message += (error.message.isEmpty ? "" : " ") + refusal.explanation
            throw error
        }
    }

    /// Waits for `hold` to lift, up to ``RetryPolicy/maxConnectivityWait`` and `deadline`.
    /// - Returns: How long it waited, or `nil` when the hold was still on at the bound.
    /// - Throws: ``SwitchyardError/Kind/cancelled`` when the task is cancelled.
    private func waitForHold(
        _ hold: any AttemptHold, _ request: Request, _ context: ExchangeContext,
        deadline: ContinuousClock.Instant?, attempt: Int
    ) async throws(SwitchyardError) -> Duration? {
        let start = ContinuousClock.now
        let bound = start.advanced(by: policy.maxConnectivityWait)
        if let event = hold.waitingEvent { context.publish(.plugin(event), request: request) }
        switch await hold.waitUntilLifted(deadline: deadline.map { min($0, bound) } ?? bound) {
        case .lifted: return start.duration(to: .now)
        case .deadlinePassed: return nil
        case .cancelled:
            var cancelled = SwitchyardError.cancelled
            cancelled.attempt = attempt
            throw cancelled
        }
    }

    /// Runs one attempt through the rest of the chain and captures its outcome (never inlined: its
    /// result and error temporaries would join the frame of ``intercept(_:context:next:)``).
    @inline(never)
    private static func attempt(_ request: Request, next: Next, number: Int) async -> Result<Response, SwitchyardError> {
        do {
            return .success(try await next(request))
        } catch {
            return .failure(error)  // already sealed with its attempt by the link it came from
        }
    }

    /// Sleeps for `delay`, or throws ``SwitchyardError/Kind/cancelled`` as soon as the task is cancelled.
    private static func wait(_ delay: Duration, attempt: Int) async throws(SwitchyardError) {
        do {
            if Task.isCancelled { throw CancellationError() }
            try await sleepReleasingTimerOnCancel(until: ContinuousClock.now.advanced(by: delay))
        } catch {
            var cancelled = SwitchyardError.cancelled
            cancelled.attempt = attempt
            throw cancelled
        }
    }
}
