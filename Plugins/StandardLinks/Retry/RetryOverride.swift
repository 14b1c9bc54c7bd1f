public import SwitchyardCore
import SwitchyardTransportKit

/// Per-request changes to the ``RetryPolicy`` of a ``RetryInterceptor``, set through
/// ``SwitchyardCore/RequestOptions/retry``.
///
/// ```swift
/// var request = try Request(method: .post, url: "https://api.example.com/charges", body: HTTPBody(json))
/// request.options.retry = .allowingNonIdempotentRetry   // this POST is safe to repeat
///
/// var once = try Request(url: "https://api.example.com/poll")
/// once.options.retry = .disabled                       // a single attempt
/// ```
///
/// A single-use streamed body is never retried, whatever the override says.
public struct RetryOverride: Sendable, Hashable {
    /// Attempts in total for this request (1 disables retries); `nil` keeps the policy's.
    public var maxAttempts: Int?
    /// `true` marks this request as safe to repeat whatever its method, `false` forbids retrying
    /// a non-idempotent method even if the policy allows it; `nil` keeps the policy's setting.
    public var allowsNonIdempotentRetry: Bool?
    /// `true` gives this request an automatic `Idempotency-Key` (the policy's
    /// ``RetryPolicy/idempotencyKeys``, or ``IdempotencyKeys/automatic`` when it has none), `false`
    /// adds none; `nil` keeps the policy's setting.
    public var addsIdempotencyKey: Bool?

    /// Creates an override; `nil` keeps the policy's value.
    /// - Parameters:
    ///   - maxAttempts: Attempts in total for this request.
    ///   - allowsNonIdempotentRetry: Whether this request is safe to repeat whatever its method.
    ///   - addsIdempotencyKey: Whether this request gets an automatic `Idempotency-Key`.
    public init(maxAttempts: Int? = nil, allowsNonIdempotentRetry: Bool? = nil, addsIdempotencyKey: Bool? = nil) {
        self.maxAttempts = maxAttempts
        self.allowsNonIdempotentRetry = allowsNonIdempotentRetry
        self.addsIdempotencyKey = addsIdempotencyKey
    }

    /// Exactly one attempt.
    public static let disabled = RetryOverride(maxAttempts: 1)
    /// Retry this request even though its method is not idempotent: the caller knows repeating is harmless.
    public static let allowingNonIdempotentRetry = RetryOverride(allowsNonIdempotentRetry: true)
    /// Give this request an automatic `Idempotency-Key` if its method needs one (see ``IdempotencyKeys``).
    public static let addingIdempotencyKey = RetryOverride(addsIdempotencyKey: true)
}

/// The per-request retry option (``SwitchyardCore/RequestOptions/retry``).
public enum RetryOptionKey: RequestOptionKey {
    /// No change: the retry link's policy applies.
    public static let defaultValue: RetryOverride? = nil
}

extension RequestOptions {
    /// Changes to the retry policy for this request only (see ``RetryInterceptor``); `nil` keeps
    /// the interceptor's policy. E.g. `options.retry = .disabled`.
    public var retry: RetryOverride? {
        get { self[RetryOptionKey.self] }
        set { self[RetryOptionKey.self] = newValue }
    }
}
