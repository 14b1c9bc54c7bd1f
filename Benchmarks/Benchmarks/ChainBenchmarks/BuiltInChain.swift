import Switchyard

/// The client configuration with every built-in interceptor switched on, as an app would run it.
enum BuiltInChain {
    static func configuration() -> ClientConfiguration {
        ClientConfiguration(
            events: EventBus(),
            validation: StatusValidation(),
            maxResponseBytes: 1 << 20,
            redirects: RedirectPolicy(),
            retry: RetryPolicy(),
            retryBudget: RetryBudget())
    }
}
