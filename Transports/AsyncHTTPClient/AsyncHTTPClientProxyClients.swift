import AsyncHTTPClient
import HTTPTypes
import NIOCore
import SwitchyardCore
import SwitchyardTransportKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The extra `HTTPClient`s an owned transport with a ``ProxyConfiguration`` keeps: AsyncHTTPClient
/// has one proxy per client, so each distinct proxy gets a client of its own, and requests that go
/// direct (no proxy for their scheme, or a ``NoProxyList`` match) use the transport's own client.
///
/// AsyncHTTPClient reaches every server through a proxy with `CONNECT`, `http://` ones included
/// (it has no absolute-form forwarding), so ``ProxyConfiguration/tunnelsHTTP`` is always in effect.
struct AsyncHTTPClientProxyClients: Sendable {
    let configuration: ProxyConfiguration
    private let clients: [ProxyServer: HTTPClient]

    init(_ configuration: ProxyConfiguration, base: HTTPClient.Configuration) {
        self.configuration = configuration
        var clients: [ProxyServer: HTTPClient] = [:]
        for server in [configuration.httpProxy, configuration.httpsProxy].compactMap({ $0 }) where clients[server] == nil {
            var proxied = base
            proxied.proxy = .server(
                host: server.host, port: server.port,
                authorization: server.credentials.map { .basic(credentials: $0.basicToken) })
            clients[server] = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: proxied)
        }
        self.clients = clients
    }

    /// The client for `head` and the proxy it goes through (`nil` and `direct` when it goes direct).
    func route(_ head: HTTPRequest, direct: HTTPClient) -> (client: HTTPClient, proxy: ProxyServer?) {
        guard let server = configuration.proxy(forScheme: head.scheme, authority: head.authority),
            let client = clients[server]
        else { return (direct, nil) }
        return (client, server)
    }

    /// Shuts every proxied client down.
    func shutdown() async throws {
        for client in clients.values { try await client.shutdown() }
    }

    /// Shuts every proxied client down in the background (a forgotten shutdown).
    func shutdownInBackground() {
        for client in clients.values { client.shutdown { _ in } }
    }

    /// The failure when the proxy itself is what failed: it could not be reached, asked for
    /// credentials, or refused the `CONNECT`; `nil` for anything else.
    static func failure(for error: any Error, proxy: ProxyServer, host: String) -> SwitchyardError? {
        switch error {
        case let error as HTTPClientError where error == .proxyAuthenticationRequired:
            return ProxyFailure.authenticationRequired(proxy: proxy, host: host, underlyingError: error)
        case let error as HTTPClientError where error == .invalidProxyResponse:
            return ProxyFailure.refused(proxy: proxy, host: host, status: nil, underlyingError: error)
        case let error as IOError where error.errnoCode == ECONNREFUSED:
            return ProxyFailure.unreachable(
                proxy: proxy, host: host, detail: "the connection was refused",
                underlyingError: error)
        default:
            guard String(reflecting: type(of: error)) == "NIOPosix.NIOConnectionError" else { return nil }
            return ProxyFailure.unreachable(proxy: proxy, host: host, detail: "\(error)", underlyingError: error)
        }
    }
}
