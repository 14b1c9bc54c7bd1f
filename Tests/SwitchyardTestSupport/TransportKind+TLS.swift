public import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardCurl
import SwitchyardURLSession

extension TransportKind {
    /// A new transport of this kind with these TLS options (call `shutdown()` on it when done).
    /// - Parameter tls: The transport configuration's `tls`.
    /// - Returns: The transport.
    public func make(tls: TLSOptions) -> any Transport {
        switch self {
        case .curl: CurlTransport(configuration: .init(tls: tls))
        case .urlSession: URLSessionTransport(configuration: .init(tls: tls))
        case .asyncHTTPClient: AsyncHTTPClientTransport(configuration: .init(tls: tls))
        }
    }

    /// Whether this transport honours ``TLSOptions`` other than the defaults (URLSession does not:
    /// it fails every request with `tls`, see `URLSessionTransport`).
    public var supportsTLSOptions: Bool { self != .urlSession }
}
