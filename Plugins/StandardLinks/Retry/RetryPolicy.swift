public import HTTPTypes
public import SwitchyardCore
import SwitchyardTransportKit

/// When and how ``RetryInterceptor`` tries a request again.
///
/// The defaults retry up to 3 attempts in total, only for requests that are safe to repeat, on
/// connection failures and on the statuses 408, 429, 500, 502, 503 and 504, with a capped,
/// fully jittered exponential back-off and `Retry-After` honoured up to 30 s:
///
/// ```swift
/// var policy = RetryPolicy()
/// policy.maxAttempts = 5
/// policy.maxTotalDuration = .seconds(20)      // all attempts and waits together
/// policy.backoff = RetryBackoff(base: .milliseconds(250), cap: .seconds(4))
/// policy.retryableStatuses.remove(500)
/// let retry = RetryInterceptor(policy: policy)
/// ```
///
/// ### Which failures are retried
///
/// `SwitchyardError.Kind.connectionFailed` (refused, reset, closed without an answer: that is
/// how every shipped transport reports them) and `SwitchyardError.Kind.timeout` of an attempt
/// while the exchange's deadline has not passed. Kinds declared by plugins are never retried
/// unless ``shouldRetry`` says so. Cancellation, TLS failures, protocol violations,
/// oversized responses, invalid requests and other `SwitchyardError.Kind.transport` failures
/// are final: repeating them would give the same answer.
///
/// ### What is safe to repeat
///
/// A request is retried only if repeating it cannot do harm: its method is idempotent
/// (``idempotentMethods``: GET, HEAD, OPTIONS, PUT, DELETE, TRACE), or it carries an
/// `Idempotency-Key` header (the app's, or an automatic one: ``idempotencyKeys``), or the caller
/// opted in (``retriesNonIdempotentRequests`` here, or
/// ``RetryOverride/allowsNonIdempotentRetry`` on one request). A body that is a single-use
/// stream (`HTTPBody.Replayability.singleUse`) is never sent twice, whatever the settings.
///
/// One exception needs no opt-in: a failure whose `SwitchyardError.requestWasNotProcessed` is set
/// (an HTTP/2 refused stream, a stream above the server's `GOAWAY` last-stream-id, a connection that
/// never opened) is retried whatever the method, because the server did not act on the request. A
/// stream reset or a `GOAWAY` that may have followed processing gets the rules above: a GET is
/// retried, a POST without `Idempotency-Key` is not.
///
/// ### Rules of your own
///
/// ``shouldRetry`` sees each attempt's outcome before the built-in rules (``RetryAttempt``: the
/// request head, the attempt's number, the response head or the error) and answers
/// ``RetryDecision/retry(after:)``, ``RetryDecision/doNotRetry`` or ``RetryDecision/useBuiltIn``:
///
/// ```swift
/// policy.shouldRetry = { attempt in
///     if attempt.response?.status.code == 409 { return .retry }              // this API's "try again"
///     if let value = attempt.response?.headerFields[HTTPField.Name("X-Retry-In-Ms")!], let ms = Int(value) {
///         return .retry(after: .milliseconds(ms))                           // its own wait header
///     }
///     return .useBuiltIn
/// }
/// ```
///
/// ### Idempotency keys
///
/// With ``idempotencyKeys`` set, a POST or PATCH without an `Idempotency-Key` gets one (the same on
/// every attempt of the call), which makes it safe to repeat by the rule above; see ``IdempotencyKeys``.
///
/// ### While offline
///
/// A ``RetryInterceptor`` whose exchange has an `AttemptHold` (the connectivity plugin's) does not
/// spend attempts while the hold is on (offline): after a failed attempt that is to be retried, it
/// waits for the hold to lift instead of the back-off (up to ``maxConnectivityWait`` and the deadline), then retries at
/// once. If the network stays down, the last error is final.
///
/// ### One deadline for all attempts
///
/// The exchange's `ExchangeContext.deadline` and ``maxTotalDuration`` (measured from
/// `ExchangeContext.startedAt`) bound the attempts and the waits together. A wait that would
/// end at or after that bound is not started: the interceptor returns the last response, or
/// rethrows the last error, right away.
public struct RetryPolicy: Sendable {
    /// Attempts in total, the first one included. Default 3.
    public static let defaultMaxAttempts = 3
    /// Statuses that mean "try again later": 408, 429, 500, 502, 503, 504.
    public static let defaultRetryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]
    /// Methods that RFC 9110 §9.2.2 defines as idempotent: GET, HEAD, OPTIONS, PUT, DELETE, TRACE.
    /// POST, PATCH and CONNECT are not.
    public static let defaultIdempotentMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .put, .delete, .trace]
    /// The longest `Retry-After` honoured. Default 30 s.
    public static let defaultMaxRetryAfter: Duration = .seconds(30)
    /// The longest a retry waits for connectivity to return. Default 30 s.
    public static let defaultMaxConnectivityWait: Duration = .seconds(30)

    /// Attempts in total, the first one included; 1 disables retries.
    public var maxAttempts: Int
    /// A bound on all attempts and waits together, measured from the start of the exchange, on
    /// top of the exchange's own deadline; `nil` for none.
    public var maxTotalDuration: Duration?
    /// The wait before each retry when the server does not say (`Retry-After`).
    public var backoff: RetryBackoff
    /// Response statuses that are retried.
    public var retryableStatuses: Set<Int>
    /// Methods considered safe to repeat.
    public var idempotentMethods: Set<HTTPRequest.Method>
    /// Retry every request, whatever its method (still never a single-use body). Default `false`.
    public var retriesNonIdempotentRequests: Bool
    /// The longest `Retry-After` honoured: when a server asks for a longer wait, the response is
    /// returned instead of waiting.
    public var maxRetryAfter: Duration
    /// The longest a retry waits for the network to come back when the interceptor's
    /// `AttemptHold` holds after a failed attempt (the exchange's deadline
    /// bounds it too); when the network is still down then, the last error is final.
    public var maxConnectivityWait: Duration = RetryPolicy.defaultMaxConnectivityWait
    /// The app's own rule, asked after every attempt that may still be followed by another (attempts
    /// left, a body that can be sent again, not cancelled) before the built-in rules; `nil` (the
    /// default) for none.
    ///
    /// Its answer ``RetryDecision/retry(after:)`` retries even what the built-in rules would not (a
    /// status outside ``retryableStatuses``, an error kind they treat as final, a method that is not
    /// idempotent: check ``RetryAttempt/isSafeToRepeat`` to keep those); ``RetryDecision/doNotRetry``
    /// makes the outcome final; ``RetryDecision/useBuiltIn`` leaves it to the built-in rules. What
    /// it cannot change: ``maxAttempts``, the deadline (a wait that would cross it is not started),
    /// the ``RetryBudget``, a single-use body, a cancelled call. It runs on the calling task: keep
    /// it quick and free of blocking work.
    public var shouldRetry: (@Sendable (RetryAttempt) -> RetryDecision)?
    /// Automatic `Idempotency-Key` fields for POST and PATCH requests without one, which makes them
    /// safe to repeat; `nil` (the default) adds none. See ``IdempotencyKeys``.
    public var idempotencyKeys: IdempotencyKeys?

    /// Creates a policy; every parameter has a documented default.
    /// - Parameters:
    ///   - maxAttempts: Attempts in total.
    ///   - maxTotalDuration: A bound on all attempts and waits together.
    ///   - backoff: The wait schedule.
    ///   - retryableStatuses: Statuses that are retried.
    ///   - idempotentMethods: Methods considered safe to repeat.
    ///   - retriesNonIdempotentRequests: Whether to retry requests of other methods too.
    ///   - maxRetryAfter: The longest `Retry-After` honoured.
    public init(
        maxAttempts: Int = RetryPolicy.defaultMaxAttempts,
        maxTotalDuration: Duration? = nil,
        backoff: RetryBackoff = RetryBackoff(),
        retryableStatuses: Set<Int> = RetryPolicy.defaultRetryableStatuses,
        idempotentMethods: Set<HTTPRequest.Method> = RetryPolicy.defaultIdempotentMethods,
        retriesNonIdempotentRequests: Bool = false,
        maxRetryAfter: Duration = RetryPolicy.defaultMaxRetryAfter
    ) {
        self.maxAttempts = maxAttempts
        self.maxTotalDuration = maxTotalDuration
        self.backoff = backoff
        self.retryableStatuses = retryableStatuses
        self.idempotentMethods = idempotentMethods
        self.retriesNonIdempotentRequests = retriesNonIdempotentRequests
        self.maxRetryAfter = maxRetryAfter
    }

    /// This policy with a request's ``RetryOverride`` applied.
    /// - Parameter override: The request's override, if any.
    /// - Returns: The policy to use for that request.
    public func applying(_ override: RetryOverride?) -> RetryPolicy {
        guard let override else { return self }
        var policy = self
        if let maxAttempts = override.maxAttempts { policy.maxAttempts = maxAttempts }
        if let allowed = override.allowsNonIdempotentRetry { policy.retriesNonIdempotentRequests = allowed }
        if let adds = override.addsIdempotencyKey { policy.idempotencyKeys = adds ? policy.idempotencyKeys ?? .automatic : nil }
        return policy
    }

    /// Whether repeating `request` is safe: an idempotent method, an `Idempotency-Key` header, or
    /// an opt-in — and a body that can be sent again.
    /// - Parameter request: The request.
    /// - Returns: `true` if the request may be sent more than once.
    public func allowsRepeating(_ request: Request) -> Bool {
        if request.body?.replayability == .singleUse { return false }
        return retriesNonIdempotentRequests || idempotentMethods.contains(request.head.method)
            || request.head.headerFields.containsField(named: .idempotencyKey)
    }

    /// The point after which no new attempt or wait starts: the earlier of the exchange's
    /// deadline and `startedAt + maxTotalDuration`.
    /// - Parameter context: The exchange's context.
    /// - Returns: The bound, or `nil` for none.
    public func deadline(for context: ExchangeContext) -> ContinuousClock.Instant? {
        let own = maxTotalDuration.map { context.startedAt.advanced(by: $0) }
        switch (context.deadline, own) {
        case (let exchange?, let own?): return min(exchange, own)
        case (let exchange, let own): return exchange ?? own
        }
    }
}
