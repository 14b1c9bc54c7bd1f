import ArgumentParser
import Switchyard
import SwitchyardObservability

/// The chains `yard bench` compares.
enum BenchChain: String, CaseIterable, ExpressibleByArgument {
    /// The transport alone.
    case bare
    /// What `Client(transport:)` runs (``ClientConfiguration/standard``): events, redirects, retry
    /// within its budget, and status validation.
    case standard
    /// The built-in chain as an app runs it (``ClientConfiguration/benchmarkingBuiltIns()``):
    /// events, timing statistics, a header rule, redirects, retry with its budget, and logging at
    /// info level into a handler that discards the lines.
    case `default`

    /// A client of this chain over `transport`, with `extraInterceptors` first among the app's.
    func makeClient(_ transport: any Transport, extraInterceptors: [any Interceptor] = []) throws -> Client {
        switch self {
        case .bare:
            return Client(transport: transport, interceptors: extraInterceptors)
        case .standard:
            var configuration = ClientConfiguration.standard
            configuration.callInterceptors = extraInterceptors
            return try Client(transport: transport, configuration: configuration)
        case .default:
            return try Client(
                transport: transport,
                configuration: ClientConfiguration(callInterceptors: extraInterceptors).benchmarkingBuiltIns())
        }
    }
}
