public import Logging
public import Switchyard

extension ClientConfiguration {
    /// The built-in chain as an app typically runs it: what `init(events:popUps:validation:maxResponseBytes:redirects:retry:retryBudget:plugins:callInterceptors:attemptInterceptors:)`
    /// switches on (events, redirects, retry with its budget) plus timing statistics, a header rule,
    /// and logging at debug level (one line per attempt) into a ``DiscardingLogHandler`` (the cost of formatting the lines
    /// without the cost of I/O). Status validation and a size limit stay off, as by default.
    ///
    /// The one definition of "the built-in chain" that `yard bench --chain default` and the chain
    /// micro-benchmarks measure, so their figures describe the same chain.
    ///
    /// ```swift
    /// let client = try Client(transport: transport, configuration: .benchmarkingBuiltIns())
    /// ```
    /// - Parameter callInterceptors: The app's call interceptors (e.g. pass-through hops to measure).
    /// - Returns: The configuration.
    public static func benchmarkingBuiltIns(callInterceptors: [any Interceptor] = []) -> ClientConfiguration {
        var configuration = ClientConfiguration(callInterceptors: callInterceptors)
        configuration.headers = [HeaderRules(owner: "bench", rules: [.set("X-Client", "switchyard-bench")])]
        configuration.plugins = [
            .timingStats(TimingStats()),
            .logging(
                LoggingConfiguration(logger: Logger(label: "switchyard.bench") { _ in DiscardingLogHandler(logLevel: .debug) }))
        ]
        return configuration
    }
}

/// A log handler that accepts every line at its level (info by default) and drops it: logging's
/// cost without the I/O, for benchmarks.
public struct DiscardingLogHandler: LogHandler {
    /// The level from which lines are accepted (and dropped).
    public var logLevel: Logger.Level
    /// Metadata attached to every line (kept, as a real handler would).
    public var metadata: Logger.Metadata = [:]

    /// Creates a handler.
    /// - Parameter logLevel: The level from which lines are accepted.
    public init(logLevel: Logger.Level = .info) {
        self.logLevel = logLevel
    }

    /// The metadata value for `key`.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Drops the line.
    /// - Parameter event: The line.
    public func log(event: LogEvent) {}
}
