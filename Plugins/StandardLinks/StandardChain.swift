public import SwitchyardCore
public import SwitchyardPopUps

/// The standard links as settings of ``ClientConfiguration`` (`ClientSettingKey`): each becomes a
/// plugin in the call position, after the department plugins, in this order: status validation,
/// size limit, redirects, retry.
extension Plugin {
    /// The layer of the status-validation link.
    public static let statusValidationLayer: Layer = .checking
    /// The layer of the response-size-limit link: status validation's, inside it.
    public static let responseSizeLimitLayer: Layer = .checking
    /// The layer of the redirect link.
    public static let redirectsLayer: Layer = .resending
    /// The layer of the retry link: the redirect link's, inside it (the last call link), so each retry
    /// runs every attempt link again.
    public static let retryLayer: Layer = .resending
}

/// ``ClientConfiguration/validation``.
enum StatusValidationSetting: ClientSettingKey {
    static let defaultValue: StatusValidation? = nil
    static func plugins(for value: StatusValidation?, in configuration: ClientConfiguration) -> [Plugin] {
        value.map {
            [Plugin(name: "validation", layer: Plugin.statusValidationLayer, interceptors: [StatusValidationInterceptor(validation: $0)])]
        } ?? []
    }
}

/// ``ClientConfiguration/maxResponseBytes``.
enum ResponseSizeLimitSetting: ClientSettingKey {
    static let defaultValue: Int64? = nil
    static func plugins(for value: Int64?, in configuration: ClientConfiguration) -> [Plugin] {
        value.map {
            [
                Plugin(
                    name: "sizeLimit", layer: Plugin.responseSizeLimitLayer, relations: [.inside("validation")],
                    interceptors: [ResponseSizeLimitInterceptor(maxResponseBytes: $0)])
            ]
        } ?? []
    }
}

/// ``ClientConfiguration/redirects``.
enum RedirectsSetting: ClientSettingKey {
    static let defaultValue: RedirectPolicy? = RedirectPolicy()
    static func plugins(for value: RedirectPolicy?, in configuration: ClientConfiguration) -> [Plugin] {
        value.map {
            // Each hop is a call of its own to the retry link below it.
            [
                Plugin(
                    name: "redirects", layer: Plugin.redirectsLayer, relations: [.outside("retry")],
                    interceptors: [RedirectInterceptor(policy: $0)])
            ]
        } ?? []
    }
}

/// ``ClientConfiguration/retry`` (with ``ClientConfiguration/retryBudget``).
enum RetrySetting: ClientSettingKey {
    static let defaultValue: RetryPolicy? = RetryPolicy()
    static func plugins(for value: RetryPolicy?, in configuration: ClientConfiguration) -> [Plugin] {
        value.map {
            [
                Plugin(
                    name: "retry", layer: Plugin.retryLayer,
                    interceptors: [RetryInterceptor(policy: $0, budget: configuration[RetryBudgetSetting.self])])
            ]
        } ?? []
    }
}

/// ``ClientConfiguration/retryBudget``: read by the retry setting; no link of its own.
enum RetryBudgetSetting: ClientSettingKey {
    static let defaultValue: RetryBudget? = nil
    static func plugins(for value: RetryBudget?, in configuration: ClientConfiguration) -> [Plugin] { [] }
}

extension ClientConfiguration {
    /// Which statuses count as success; others fail with `httpStatus`. `nil` (default) accepts all.
    public var validation: StatusValidation? {
        get { self[StatusValidationSetting.self] }
        set { self[StatusValidationSetting.self] = newValue }
    }

    /// A response-size limit for calls that set none, enforced while the body streams.
    public var maxResponseBytes: Int64? {
        get { self[ResponseSizeLimitSetting.self] }
        set { self[ResponseSizeLimitSetting.self] = newValue }
    }

    /// How redirects are followed; `nil` returns them to the caller.
    public var redirects: RedirectPolicy? {
        get { self[RedirectsSetting.self] }
        set { self[RedirectsSetting.self] = newValue }
    }

    /// How failed attempts are retried; `nil` never retries.
    public var retry: RetryPolicy? {
        get { self[RetrySetting.self] }
        set { self[RetrySetting.self] = newValue }
    }

    /// Limits retries to a fraction of recent requests, shared by every call of the client; `nil`
    /// lets the retry policy alone decide.
    ///
    /// The default ``RetryBudget`` allows 20 % of the requests plus 1 retry a second, over a 10-second
    /// window. A retry it refuses leaves the attempt's outcome as the call's: its error keeps its
    /// kind and says so in its message, and ``RetryBudgetRefused`` is published (see
    /// <doc:RetriesAndTheRetryBudget>).
    public var retryBudget: RetryBudget? {
        get { self[RetryBudgetSetting.self] }
        set { self[RetryBudgetSetting.self] = newValue }
    }

    /// `Switchyard/<version>`: the `User-Agent` the standard configuration sends when a request sets none.
    public static let defaultUserAgent = SwitchyardVersion.userAgent

    /// The everyday chain, what `Client(transport:)` uses: events, redirects (up to 10), retry of
    /// idempotent requests (3 attempts) within a retry budget, and status validation (200–399
    /// accepted; others fail with `SwitchyardError.Kind.httpStatus`). Bodies read
    /// whole by `Client.send(_:)` are already limited
    /// (`Client.defaultMaxBufferedResponseBytes`, counted in decoded bytes);
    /// streamed bodies get a limit from ``maxResponseBytes`` or the request.
    public static var standard: ClientConfiguration { ClientConfiguration(validation: StatusValidation()) }

    /// Creates a configuration with the standard links on: events, redirects (up to 10), retry
    /// (3 attempts, idempotent requests only) with a retry budget.
    /// - Parameters:
    ///   - events: The event bus (a new one by default).
    ///   - popUps: Pop-up texts, and how identical pop-ups merge into one.
    ///   - validation: Accepted statuses, or `nil` to accept every status.
    ///   - maxResponseBytes: A default response-size limit, or `nil` for none.
    ///   - redirects: The redirect policy, or `nil` for none.
    ///   - retry: The retry policy, or `nil` for none.
    ///   - retryBudget: The retry budget, or `nil` for none.
    ///   - plugins: Department plugins.
    ///   - callInterceptors: The app's call interceptors.
    ///   - attemptInterceptors: The app's attempt interceptors.
    ///   - userAgent: The `User-Agent` of requests that set none, or `nil` for none.
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
        attemptInterceptors: [any Interceptor] = [],
        userAgent: String? = ClientConfiguration.defaultUserAgent
    ) {
        self = .bare
        self.userAgent = userAgent
        self.events = events
        self.popUps = popUps
        self.plugins = plugins
        self.callInterceptors = callInterceptors
        self.attemptInterceptors = attemptInterceptors
        self.validation = validation
        self.maxResponseBytes = maxResponseBytes
        self.redirects = redirects
        self.retry = retry
        self.retryBudget = retryBudget
    }
}

extension Client {
    /// Creates a client with the standard chain (``ClientConfiguration/standard``): events,
    /// redirects, retry of idempotent requests within a budget, and status validation (a status
    /// outside 200–399 fails with `SwitchyardError.Kind.httpStatus`, the response
    /// head attached).
    ///
    /// For exactly the links you choose, use `init(transport:interceptors:events:)` (none:
    /// `interceptors: []`); for the standard chain plus plugins, `init(transport:configuration:)`.
    /// - Parameter transport: The transport that performs the I/O.
    public init(transport: any Transport) {
        do {
            try self.init(transport: transport, configuration: .standard)
        } catch {
            // Only plugin names and placements can fail to assemble, and the standard configuration has no plugins.
            preconditionFailure("the standard configuration failed to assemble: \(error)")
        }
    }
}
