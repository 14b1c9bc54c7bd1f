import HTTPTypes
import SwitchyardCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What ``RetryInterceptor`` does after one attempt.
enum RetryDecision: Equatable {
    /// Hand the outcome to the caller.
    case stop
    /// Wait `delay`, then send the request again; `reason` explains why (for events).
    case retry(after: Duration, reason: String)
}

extension RetryPolicy {
    /// Decides whether attempt `attempt`'s outcome is worth another attempt, and after how long.
    ///
    /// Rules, in order: attempts left; the request is safe to repeat (``allowsRepeating(_:)``), or
    /// the failure proves the server did not process it (``SwitchyardError/requestWasNotProcessed``,
    /// with a body that can be sent again); the outcome is a retryable status or a connection failure or timeout (never a
    /// cancellation, never a kind declared by a plugin); a `Retry-After` on the response is honoured when it is at most
    /// ``maxRetryAfter``, otherwise the response is final; the wait must end before `deadline`.
    /// The clocks (`now`, `wallClock`) are read only when a retry is in question.
    func decision(
        after outcome: Result<Response, SwitchyardError>, of request: Request, attempt: Int,
        deadline: ContinuousClock.Instant?, now: ContinuousClock.Instant? = nil, wallClock: Date? = nil
    ) -> RetryDecision {
        guard attempt < maxAttempts, allowsRepeating(request) || Self.wasNotProcessed(outcome, request) else { return .stop }
        let delay: Duration
        let reason: String
        switch outcome {
        case .success(let response):
            let code = response.head.status.code
            guard retryableStatuses.contains(code) else { return .stop }
            reason = "HTTP \(code)"
            if let header = response.head.headerFields[.retryAfter], let asked = RetryAfter.delay(from: header, now: wallClock ?? Date()) {
                guard asked <= maxRetryAfter else { return .stop }
                delay = asked
            } else {
                delay = backoff.delay(forRetry: attempt)
            }
        case .failure(let error):
            switch error.kind {
            case .connectionFailed:
                reason = error.requestWasNotProcessed ? "not processed by the server" : "connection failed"
            case .timeout: reason = "attempt timed out"
            // Any other kind (an open circuit breaker among them: retrying would only fail fast
            // again, or probe the host early) is not retried.
            default: return .stop
            }
            delay = backoff.delay(forRetry: attempt)
        }
        if let deadline, (now ?? .now).advanced(by: delay) >= deadline { return .stop }
        return .retry(after: delay, reason: reason)
    }

    /// Whether `outcome` is a failure the server provably did not process, for a request whose body
    /// can be sent again: then even a request that is not safe to repeat may be retried.
    /// Reached only for requests ``allowsRepeating(_:)`` refuses.
    private static func wasNotProcessed(_ outcome: Result<Response, SwitchyardError>, _ request: Request) -> Bool {
        guard case .failure(let error) = outcome, error.requestWasNotProcessed else { return false }
        return request.body?.replayability != .singleUse
    }
}
