import Logging
import Switchyard

/// The client configuration with every built-in interceptor switched on, as an app would run it:
/// events, timing statistics, a header rule, validation, a size limit, redirects, retry with its
/// budget, and logging at info level into a handler that discards the lines.
enum BuiltInChain {
    static func configuration() -> ClientConfiguration {
        var configuration = ClientConfiguration(
            events: EventBus(),
            validation: StatusValidation(),
            maxResponseBytes: 1 << 20,
            redirects: RedirectPolicy(),
            retry: RetryPolicy(),
            retryBudget: RetryBudget())
        configuration.timingStats = TimingStats()
        configuration.headers = [HeaderRules(owner: "app", rules: [.set("X-Client", "bench/1.0")])]
        configuration.logging = LoggingConfiguration(logger: Logger(label: "bench") { _ in DiscardingLogHandler() })
        return configuration
    }
}

/// Accepts every line at info level and drops it: the cost of formatting without the cost of I/O.
struct DiscardingLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {}
}
