public import Logging
import SwitchyardCore

/// Collects log lines in memory, from loggers it makes (never the global logging system).
public final class CapturedLog: Sendable {
    /// One logged line: level, rendered message and metadata rendered as sorted `key=value` pairs.
    public typealias Line = (level: Logger.Level, message: String, metadata: String)

    private let lines = Lock<[Line]>([])

    /// Creates an empty log.
    public init() {}

    struct Handler: LogHandler {
        let log: CapturedLog
        var logLevel: Logger.Level
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            let rendered = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            log.lines.withLock { $0.append((event.level, "\(event.message)", rendered)) }
        }
    }

    /// A logger writing into this log.
    /// - Parameter level: The logger's level.
    /// - Returns: The logger.
    public func logger(level: Logger.Level) -> Logger {
        Logger(label: "test") { _ in Handler(log: self, logLevel: level) }
    }

    /// Every line so far, in order.
    public var all: [Line] { lines.withLock { $0 } }

    /// Every line as `level message metadata`, one per line.
    public var text: String { all.map { "\($0.level) \($0.message) \($0.metadata)" }.joined(separator: "\n") }

    /// The messages logged at exactly `level`, in order.
    /// - Parameter level: The level.
    /// - Returns: The messages.
    public func messages(at level: Logger.Level) -> [String] { all.filter { $0.level == level }.map(\.message) }
}
