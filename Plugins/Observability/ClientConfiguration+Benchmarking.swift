public import Logging
public import SwitchyardCore
import SwitchyardHeaders

extension ClientConfiguration {
    /// This configuration plus what the benchmarked built-in chain adds to the standard one
    /// (`ClientConfiguration()` of the `Switchyard` module: events, redirects, retry with its
    /// budget): timing statistics, a header rule, and logging at debug level (one line per attempt)
    /// into a ``DiscardingLogHandler`` (the cost of formatting the lines without the cost of I/O).
    ///
    /// The one definition of "the built-in chain" that `yard bench --chain default` and the chain
    /// micro-benchmarks measure, so their figures describe the same chain.
    ///
    /// ```swift
    /// let client = try Client(transport: transport, configuration: ClientConfiguration().benchmarkingBuiltIns())
    /// ```
    /// - Returns: The configuration with those plugins and the header rule added.
    public func benchmarkingBuiltIns() -> ClientConfiguration {
        var configuration = self
        configuration.headers += [HeaderRules(owner: "bench", rules: [.set("X-Client", "switchyard-bench")])]
        configuration.plugins += [
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
