import Logging
import Switchyard

/// The chains `yard bench` compares.
enum BenchChain: String, CaseIterable {
    /// The transport alone.
    case bare
    /// The built-in chain as an app runs it: events, timing statistics, a header rule, redirects,
    /// retry with its budget, and logging at info level into a handler that discards the lines.
    case `default`

    /// A client of this chain over `transport`, with `extraInterceptors` first among the app's.
    func makeClient(_ transport: any Transport, extraInterceptors: [any Interceptor] = []) throws -> Client {
        switch self {
        case .bare:
            return Client(transport: transport, interceptors: extraInterceptors)
        case .default:
            var configuration = ClientConfiguration(callInterceptors: extraInterceptors)
            configuration.timingStats = TimingStats()
            configuration.headers = [HeaderRules(owner: "bench", rules: [.set("X-Client", "yard-bench")])]
            configuration.logging = LoggingConfiguration(logger: Logger(label: "yard.bench") { _ in DiscardingLogHandler() })
            return try Client(transport: transport, configuration: configuration)
        }
    }
}

/// Accepts every line at info level and drops it: the cost of logging without the I/O.
struct DiscardingLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {}
}
