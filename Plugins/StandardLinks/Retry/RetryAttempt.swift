public import HTTPTypes
public import SwitchyardCore
import SwitchyardTransportKit

/// What an app's retry rule (``RetryPolicy/shouldRetry``) is shown after an attempt: the request
/// head as it was sent, the attempt's number, and the response head or the error it ended with.
///
/// ```swift
/// var policy = RetryPolicy()
/// policy.shouldRetry = { attempt in
///     // The server asks for a retry with a header of its own: honour its wait.
///     if let value = attempt.response?.headerFields[HTTPField.Name("X-Retry-In-Ms")!], let ms = Int(value) {
///         return .retry(after: .milliseconds(ms))
///     }
///     return attempt.error?.kind == .tls ? .doNotRetry : .useBuiltIn
/// }
/// ```
///
/// The response body is not read and not available: a rule decides on the head alone.
public struct RetryAttempt: Sendable {
    /// How the attempt ended.
    public enum Outcome: Sendable {
        /// A response head arrived (status and fields).
        case response(HTTPResponse)
        /// The attempt failed with this error.
        case failure(SwitchyardError)
    }

    /// The request head as the attempt sent it, with the automatic `Idempotency-Key` when one was
    /// added (``RetryPolicy/idempotencyKeys``).
    public let request: HTTPRequest
    /// The attempt that just ended: 1 for the first.
    public let number: Int
    /// The response head or the error the attempt ended with.
    public let outcome: Outcome
    /// Whether the built-in policy may repeat this request: an idempotent method, an
    /// `Idempotency-Key`, an opt-in, or a failure the server provably did not process. A rule that
    /// answers ``RetryDecision/retry(after:)`` overrides it; check it to keep a POST from being sent twice.
    public let isSafeToRepeat: Bool

    /// Creates the record a rule is shown (the retry link makes it; tests of a rule make their own).
    /// - Parameters:
    ///   - request: The request head as sent.
    ///   - number: The attempt, 1-based.
    ///   - outcome: The response head or the error.
    ///   - isSafeToRepeat: Whether the built-in policy may repeat the request.
    public init(request: HTTPRequest, number: Int, outcome: Outcome, isSafeToRepeat: Bool) {
        self.request = request
        self.number = number
        self.outcome = outcome
        self.isSafeToRepeat = isSafeToRepeat
    }

    /// The response head, when a response arrived; `nil` after a failure.
    public var response: HTTPResponse? {
        guard case .response(let head) = outcome else { return nil }
        return head
    }

    /// The error, when the attempt failed; `nil` when a response arrived.
    public var error: SwitchyardError? {
        guard case .failure(let error) = outcome else { return nil }
        return error
    }
}
