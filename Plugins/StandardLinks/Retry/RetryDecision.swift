import HTTPTypes
import SwitchyardCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What an app's retry rule (``RetryPolicy/shouldRetry``) decides after an attempt.
///
/// ```swift
/// policy.shouldRetry = { attempt in
///     switch attempt.response?.status.code {
///     case 409?: .retry                          // a conflict this API resolves on its own
///     case 503? where attempt.request.path == "/reports": .doNotRetry
///     default: .useBuiltIn                       // everything else: the policy's own rules
///     }
/// }
/// ```
public enum RetryDecision: Sendable, Hashable {
    /// Let the built-in policy decide, as if no rule were set.
    case useBuiltIn
    /// Send the request again after `after`, or, with `nil`, after the wait the policy would choose
    /// (the response's `Retry-After` when at most ``RetryPolicy/maxRetryAfter``, else the back-off;
    /// a longer `Retry-After` makes the response final, as in the built-in policy). This overrides
    /// the policy's method and status rules, not its bounds: see ``RetryPolicy/shouldRetry``.
    case retry(after: Duration?)
    /// Do not retry: the caller gets this attempt's response or error.
    case doNotRetry

    /// Retry after the wait the policy would choose: `.retry(after: nil)`.
    public static var retry: RetryDecision { .retry(after: nil) }
}

/// What ``RetryInterceptor`` does after one attempt.
enum RetryStep: Equatable {
    /// Hand the outcome to the caller.
    case stop
    /// Wait `delay`, then send the request again; `reason` explains why (for events).
    case retry(after: Duration, reason: String)
}

extension RetryPolicy {
    /// Decides whether attempt `attempt`'s outcome is worth another attempt, and after how long.
    ///
    /// Rules, in order: attempts left; the app's rule (``shouldRetry``) when there is one and it
    /// decides (see ``ruledStep(_:after:of:attempt:wallClock:)``); the request is safe to repeat
    /// (``allowsRepeating(_:)``), or the failure proves the server did not process it
    /// (``SwitchyardError/requestWasNotProcessed``, with a body that can be sent again); the outcome
    /// is a retryable status or a connection failure or timeout (never a cancellation, never a kind
    /// declared by a plugin); a `Retry-After` on the response is honoured when it is at most
    /// ``maxRetryAfter``, otherwise the response is final; the wait must end before `deadline`.
    /// The clocks (`now`, `wallClock`) are read only when a retry is in question.
    func decision(
        after outcome: Result<Response, SwitchyardError>, of request: Request, attempt: Int,
        deadline: ContinuousClock.Instant?, now: ContinuousClock.Instant? = nil, wallClock: Date? = nil
    ) -> RetryStep {
        guard attempt < maxAttempts else { return .stop }
        let step: RetryStep
        if let shouldRetry, let ruled = ruledStep(shouldRetry, after: outcome, of: request, attempt: attempt, wallClock: wallClock) {
            step = ruled
        } else {
            step = builtInStep(after: outcome, of: request, attempt: attempt, wallClock: wallClock)
        }
        guard case .retry(let delay, _) = step else { return .stop }
        if let deadline, (now ?? .now).advanced(by: delay) >= deadline { return .stop }
        return step
    }

    /// The built-in rules, without the attempt count and the deadline.
    private func builtInStep(
        after outcome: Result<Response, SwitchyardError>, of request: Request, attempt: Int, wallClock: Date?
    ) -> RetryStep {
        switch outcome {
        case .success(let response):
            // The status first: most responses are not retried, and then the method is not looked up.
            let code = response.head.status.code
            guard retryableStatuses.contains(code), allowsRepeating(request) else { return .stop }
            guard let delay = wait(after: outcome, attempt: attempt, wallClock: wallClock) else { return .stop }
            return .retry(after: delay, reason: "HTTP \(code)")
        case .failure(let error):
            guard allowsRepeating(request) || Self.wasNotProcessed(outcome, request) else { return .stop }
            let reason: String
            switch error.kind {
            case .connectionFailed:
                reason = error.requestWasNotProcessed ? "not processed by the server" : "connection failed"
            case .timeout: reason = "attempt timed out"
            // Any other kind, plugins' own among them (a plugin that fails fast would only fail
            // again), is not retried.
            default: return .stop
            }
            return .retry(after: backoff.delay(forRetry: attempt), reason: reason)
        }
    }

    /// What the app's rule decides, or `nil` when it leaves the decision to the built-in rules. The
    /// rule is not asked when no retry is possible whatever it says: a single-use body, a cancellation.
    private func ruledStep(
        _ rule: @Sendable (RetryAttempt) -> RetryDecision, after outcome: Result<Response, SwitchyardError>,
        of request: Request, attempt: Int, wallClock: Date?
    ) -> RetryStep? {
        if request.body?.replayability == .singleUse { return .stop }
        let seen: RetryAttempt.Outcome
        let what: String
        switch outcome {
        case .success(let response):
            seen = .response(response.head)
            what = "HTTP \(response.head.status.code)"
        case .failure(let error):
            if error.kind == .cancelled { return .stop }
            seen = .failure(error)
            what = error.kind.rawValue
        }
        let safe = allowsRepeating(request) || Self.wasNotProcessed(outcome, request)
        switch rule(RetryAttempt(request: request.head, number: attempt, outcome: seen, isSafeToRepeat: safe)) {
        case .useBuiltIn: return nil
        case .doNotRetry: return .stop
        case .retry(let asked):
            guard let delay = asked.map({ max(.zero, $0) }) ?? wait(after: outcome, attempt: attempt, wallClock: wallClock) else {
                return .stop
            }
            return .retry(after: delay, reason: "retry rule: \(what)")
        }
    }

    /// The policy's wait before retry number `attempt`: a response's `Retry-After` when it has a
    /// valid one (`nil`, no retry, when it asks for more than ``maxRetryAfter``), else the back-off.
    private func wait(after outcome: Result<Response, SwitchyardError>, attempt: Int, wallClock: Date?) -> Duration? {
        if case .success(let response) = outcome, let header = response.head.headerFields[.retryAfter],
            let asked = RetryAfter.delay(from: header, now: wallClock ?? Date())
        {
            return asked <= maxRetryAfter ? asked : nil
        }
        return backoff.delay(forRetry: attempt)
    }

    /// Whether `outcome` is a failure the server provably did not process, for a request whose body
    /// can be sent again: then even a request that is not safe to repeat may be retried.
    private static func wasNotProcessed(_ outcome: Result<Response, SwitchyardError>, _ request: Request) -> Bool {
        guard case .failure(let error) = outcome, error.requestWasNotProcessed else { return false }
        return request.body?.replayability != .singleUse
    }
}
