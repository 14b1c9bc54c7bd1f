/// Everything a ``Client`` assembles into its chain: the built-in interceptors' settings, the
/// registered plugins and the app's own interceptors.
///
/// ```swift
/// var configuration = ClientConfiguration()
/// configuration.retry?.maxAttempts = 4
/// configuration.redirects?.maxRedirects = 5
/// configuration.plugins = [SigningPlugin.make(scope: payments, signer: signer)]
/// let client = try Client(transport: CurlTransport(), configuration: configuration)
/// for link in client.chain { print(link) }
/// ```
///
/// ### The order of the chain
///
/// ```
/// call:     events → outermost call plugins (tracking, timing stats) → headers → outer call plugins → app call interceptors → department and inner call plugins → validation → size limit → redirects → retry
/// attempt:  outer attempt plugins → department attempt plugins → app attempt interceptors → inner attempt plugins (logging, HTTP metrics, concurrency limiter) → transport
/// ```
///
/// Plugins sit by their ``Plugin/Layer``: in the call position, those outside the departments'
/// layer come before the app's call interceptors; in the attempt position, the app's attempt
/// interceptors come after the departments' plugins. Features outside the kernel join as plugins at
/// their documented layers (timing statistics first, the concurrency limiter last).
///
/// *Call* links run once per call; *attempt* links run once per attempt (each retry and each
/// redirect hop) and see the request exactly as it goes on the wire. Plugins of one position keep
/// their registration order unless a ``Plugin/Placement`` moves them. Set a built-in's setting to
/// `nil` to leave it out.
public struct ClientConfiguration: Sendable {
    /// Where lifecycle and pop-up events are published (every exchange's
    /// ``ExchangeContext/eventBus``); `nil` publishes none, unless a plugin has observers: then the
    /// client creates a bus, so observers are never dropped silently.
    public var events: EventBus?
    /// App-wide and department header rules, each group in its own scope (see ``HeaderRules``).
    public var headers: [HeaderRules] = []
    /// How failures become user-facing pop-ups (per department scope), and their coalescing.
    public var popUps: PopUpPolicy
    /// Which statuses count as success; others fail with `httpStatus`. `nil` (default) accepts all.
    public var validation: StatusValidation?
    /// A response-size limit for calls that set none, enforced while the body streams.
    public var maxResponseBytes: Int64?
    /// How redirects are followed; `nil` returns them to the caller.
    public var redirects: RedirectPolicy?
    /// How failed attempts are retried; `nil` never retries.
    public var retry: RetryPolicy?
    /// Limits retries to a fraction of recent requests, shared by every call of the client.
    public var retryBudget: RetryBudget?
    /// Department plugins.
    public var plugins: [Plugin]
    /// The app's own call interceptors, outermost first (after the events link).
    public var callInterceptors: [any Interceptor]
    /// The app's own attempt interceptors, outermost first (after the attempt plugins).
    public var attemptInterceptors: [any Interceptor]

    /// The everyday chain, what `Client(transport:)` uses: events, redirects (up to 10), retry of
    /// idempotent requests (3 attempts) within a retry budget, and status validation (200–399
    /// accepted; others fail with ``SwitchyardError/Kind/httpStatus``). Bodies read whole by
    /// ``Client/send(_:)`` are already limited (``Client/defaultMaxBufferedResponseBytes``, counted
    /// in decoded bytes); streamed bodies get a limit from ``maxResponseBytes`` or the request.
    public static var standard: ClientConfiguration { ClientConfiguration(validation: StatusValidation()) }

    /// No built-in link and no event bus: the transport alone, plus what you add (plugins, the
    /// app's interceptors).
    public static var bare: ClientConfiguration {
        ClientConfiguration(events: nil, redirects: nil, retry: nil, retryBudget: nil)
    }

    /// Creates a configuration with the built-ins on: events, redirects (up to 10), retry
    /// (3 attempts, idempotent requests only) with a retry budget.
    /// - Parameters:
    ///   - events: The event bus (a new one by default).
    ///   - popUps: Pop-up texts and coalescing.
    ///   - validation: Accepted statuses, or `nil` to accept every status.
    ///   - maxResponseBytes: A default response-size limit, or `nil` for none.
    ///   - redirects: The redirect policy, or `nil` for none.
    ///   - retry: The retry policy, or `nil` for none.
    ///   - retryBudget: The retry budget, or `nil` for none.
    ///   - plugins: Department plugins.
    ///   - callInterceptors: The app's call interceptors.
    ///   - attemptInterceptors: The app's attempt interceptors.
    public init(
        events: EventBus? = EventBus(),
        popUps: PopUpPolicy = PopUpPolicy(),
        validation: StatusValidation? = nil,
        maxResponseBytes: Int64? = nil,
        redirects: RedirectPolicy? = RedirectPolicy(),
        retry: RetryPolicy? = RetryPolicy(),
        retryBudget: RetryBudget? = RetryBudget(),
        plugins: [Plugin] = [],
        callInterceptors: [any Interceptor] = [],
        attemptInterceptors: [any Interceptor] = []
    ) {
        self.events = events
        self.popUps = popUps
        self.validation = validation
        self.maxResponseBytes = maxResponseBytes
        self.redirects = redirects
        self.retry = retry
        self.retryBudget = retryBudget
        self.plugins = plugins
        self.callInterceptors = callInterceptors
        self.attemptInterceptors = attemptInterceptors
    }
}
