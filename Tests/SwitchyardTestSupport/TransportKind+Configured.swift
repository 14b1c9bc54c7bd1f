public import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardCurl
import SwitchyardURLSession

extension TransportKind {
    /// A new transport of this kind with these TLS options and proxies (call `shutdown()` on it
    /// when done).
    /// - Parameters:
    ///   - proxy: The transport configuration's `proxy` (`nil`: direct).
    ///   - tls: The transport configuration's `tls`.
    ///   - http1Only: Configure HTTP/1.1 only (`httpVersion = .http1_1`; URLSession has no such setting).
    /// - Returns: The transport.
    public func make(proxy: ProxyConfiguration? = nil, tls: TLSOptions = TLSOptions(), http1Only: Bool = false) -> any Transport {
        switch self {
        case .curl:
            var configuration = CurlTransport.Configuration(tls: tls)
            configuration.proxy = proxy
            if http1Only { configuration.httpVersion = .http1_1 }
            return CurlTransport(configuration: configuration)
        case .urlSession:
            var configuration = URLSessionTransport.Configuration(tls: tls)
            configuration.proxy = proxy
            return URLSessionTransport(configuration: configuration)
        case .asyncHTTPClient:
            var configuration = AsyncHTTPClientTransport.Configuration(tls: tls)
            configuration.proxy = proxy
            if http1Only { configuration.httpVersion = .http1_1 }
            return AsyncHTTPClientTransport(configuration: configuration)
        }
    }

    /// Whether this transport honours ``TLSOptions`` other than the defaults (URLSession does not:
    /// it fails every request with `tls`, see `URLSessionTransport`).
    public var supportsTLSOptions: Bool { self != .urlSession }
}
