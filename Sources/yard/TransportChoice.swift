import ArgumentParser
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardCurl
import SwitchyardURLSession

/// The transports `yard` can drive, by their command-line names.
enum TransportChoice: String, ExpressibleByArgument, CaseIterable {
    /// ``CurlTransport``: libcurl's multi interface.
    case curl
    /// ``URLSessionTransport``: Foundation's URLSession (FoundationNetworking on Linux).
    case urlsession
    /// ``AsyncHTTPClientTransport``: swift-server/async-http-client on SwiftNIO.
    case ahc

    /// The names accepted on the command line, for help texts.
    static let names = allCases.map(\.rawValue).joined(separator: ", ")

    /// A fresh transport of this kind.
    /// - Parameters:
    ///   - proxy: The proxies it sends through (`nil`: direct).
    ///   - tls: The transport's TLS options.
    ///   - http1Only: Speak HTTP/1.1 even where TLS could negotiate HTTP/2 (`--http1.1`; URLSession on
    ///     Linux cannot be told, and speaks what FoundationNetworking's libcurl chooses).
    ///   - connectTimeout: How long establishing a connection may take (`--connect-timeout`; `nil`: the
    ///     transport's default). URLSession on Linux cannot be told: the exchange's deadline bounds it.
    func makeTransport(
        proxy: ProxyConfiguration? = nil, tls: TLSOptions = TLSOptions(),
        http1Only: Bool = false, connectTimeout: Duration? = nil
    ) -> any Transport {
        switch self {
        case .curl:
            var configuration = CurlTransport.Configuration(tls: tls)
            configuration.proxy = proxy
            if http1Only { configuration.httpVersion = .http1_1 }
            if let connectTimeout { configuration.connectTimeout = connectTimeout }
            return CurlTransport(configuration: configuration)
        case .urlsession:
            var configuration = URLSessionTransport.Configuration(tls: tls)
            configuration.proxy = proxy
            return URLSessionTransport(configuration: configuration)
        case .ahc:
            var configuration = AsyncHTTPClientTransport.Configuration(tls: tls)
            configuration.proxy = proxy
            if http1Only { configuration.httpVersion = .http1_1 }
            if let connectTimeout { configuration.connectTimeout = connectTimeout }
            return AsyncHTTPClientTransport(configuration: configuration)
        }
    }

    /// Runs `body` with a fresh transport of this kind, then shuts the transport down
    /// (``Transport/shutdown()``, waiting for what it owns to be released), whatever `body` did.
    func withTransport<Result>(
        proxy: ProxyConfiguration? = nil, tls: TLSOptions = TLSOptions(), http1Only: Bool = false,
        connectTimeout: Duration? = nil, _ body: (any Transport) async throws -> Result
    ) async throws -> Result {
        let transport = makeTransport(proxy: proxy, tls: tls, http1Only: http1Only, connectTimeout: connectTimeout)
        do {
            let result = try await body(transport)
            try? await transport.shutdown()
            return result
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }
}
