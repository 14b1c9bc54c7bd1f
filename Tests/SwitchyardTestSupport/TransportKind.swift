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
    public func make() -> any Transport {
        switch self {
        case .curl: CurlTransport()
        case .urlSession: URLSessionTransport()
        case .asyncHTTPClient: AsyncHTTPClientTransport()
        }
    }
}
