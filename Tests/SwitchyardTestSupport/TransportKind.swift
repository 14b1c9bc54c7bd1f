public import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardCurl
import SwitchyardURLSession

/// The shipped transports, for tests parameterised over every one of them.
public enum TransportKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case curl, urlSession, asyncHTTPClient

    /// The name shown in test output.
    public var description: String { rawValue }

    /// A new transport of this kind (call `shutdown()` on it when done).
    /// - Parameter idleTimeout: The transport's idle timeout; `nil` for a test whose server holds
    ///   exchanges silent for as long as the test takes, which on a loaded machine can pass the default.
    public func make(idleTimeout: Duration? = IdleTimeout.default) -> any Transport {
        switch self {
        case .curl:
            var configuration = CurlTransport.Configuration()
            configuration.idleTimeout = idleTimeout
            return CurlTransport(configuration: configuration)
        case .urlSession:
            var configuration = URLSessionTransport.Configuration()
            configuration.idleTimeout = idleTimeout
            return URLSessionTransport(configuration: configuration)
        case .asyncHTTPClient:
            var configuration = AsyncHTTPClientTransport.Configuration()
            configuration.idleTimeout = idleTimeout
            return AsyncHTTPClientTransport(configuration: configuration)
        }
    }
}
