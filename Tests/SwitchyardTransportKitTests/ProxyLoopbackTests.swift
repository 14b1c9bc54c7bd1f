import Foundation
import HTTPTypes
import Logging
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardCurl
import SwitchyardObservability
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardURLSession
import Testing

extension TransportKind {
    /// Whether the transport honours an explicitly configured proxy (URLSession does not: see
    /// `URLSessionTransport.Configuration.proxy`).
    var honoursExplicitProxy: Bool { self != .urlSession }
}

/// A loopback server, a loopback proxy and a client of `kind` configured by `proxyConfiguration`.
private func withProxy(
    _ kind: TransportKind,
    requiring credentials: (user: String, password: String)? = nil,
    interceptors: [any Interceptor] = [],
    _ proxyConfiguration: (LoopbackProxy, LoopbackServer) throws -> ProxyConfiguration?,
    _ body: (Client, LoopbackServer, LoopbackProxy) async throws -> Void
) async throws {
    let proxy = try await LoopbackProxy.start(requiringCredentials: credentials)
    do {
        try await withLoopbackServer { server in
            let transport = kind.make(proxy: try proxyConfiguration(proxy, server))
            do {
                try await body(Client(transport: transport, interceptors: interceptors), server, proxy)
                try await transport.shutdown()
            } catch {
                try? await transport.shutdown()
                throw error
            }
        }
        try await proxy.shutdown()
    } catch {
        try? await proxy.shutdown()
        throw error
    }
}

/// `127.0.0.1:PORT` of the server.
private func origin(_ server: LoopbackServer) -> String { "127.0.0.1:\(server.port)" }

/// The declared URLSession limitation: an explicit proxy fails the request before anything is sent.
private func expectURLSessionRefusal(_ client: Client, _ server: LoopbackServer, _ proxy: LoopbackProxy) async throws {
    let error = await failure(of: client, try Request(url: server.url("/small")))
    #expect(error?.kind == .transport)
    #expect(error?.message.contains("FoundationNetworking") == true)
    #expect(proxy.traffic.passedThrough == 0)
    #expect(server.requestCount(path: "/small") == 0)
}

@Suite(.timeLimit(.minutes(2))) struct ProxyLoopbackTests {
    @Test(arguments: TransportKind.allCases)
    func anHTTPRequestGoesThroughTheProxy(kind: TransportKind) async throws {
        try await withProxy(kind, { proxy, _ in try ProxyConfiguration(url: proxy.url) }) { client, server, proxy in
            guard kind.honoursExplicitProxy else { return try await expectURLSessionRefusal(client, server, proxy) }
            let response = try await client.send(try Request(url: server.url("/small")))
            #expect(response.head.status == .ok)
            #expect(response.text == "hello, world\n")
            #expect(server.requestCount(path: "/small") == 1)
            if kind == .asyncHTTPClient {
                // Declared: AsyncHTTPClient reaches every server through CONNECT, http:// ones too.
                #expect(proxy.tunnels(to: origin(server)) == 1)
                #expect(proxy.traffic.forwarded.isEmpty)
            } else {
                #expect(proxy.forwardedRequests(to: origin(server)) == 1)
                #expect(proxy.traffic.forwardedURLs == [server.url("/small")])
                #expect(proxy.traffic.tunnels.isEmpty)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anHTTPRequestCanBeTunnelledWithConnect(kind: TransportKind) async throws {
        try await withProxy(kind, { proxy, _ in try ProxyConfiguration(url: proxy.url, tunnelsHTTP: true) }) { client, server, proxy in
            guard kind.honoursExplicitProxy else { return try await expectURLSessionRefusal(client, server, proxy) }
            for _ in 0..<2 {
                let response = try await client.send(try Request(url: server.url("/bytes/100000")))
                #expect(response.head.status == .ok)
                #expect(response.body.count == 100_000)
            }
            let echoed = try await client.send(
                try Request(method: .post, url: server.url("/echo/body"), body: HTTPBody("through the tunnel")))
            #expect(echoed.text == "through the tunnel")
            #expect(server.requestCount(path: "/bytes/100000") == 2)
            #expect(proxy.tunnels(to: origin(server)) >= 1)
            #expect(proxy.traffic.forwarded.isEmpty)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func credentialsInTheProxyURLAreSent(kind: TransportKind) async throws {
        try await withProxy(kind, requiring: ("alice", "s3cret")) { proxy, _ in
            try ProxyConfiguration(url: proxy.url(user: "alice", password: "s3cret"))
        } _: { client, server, proxy in
            guard kind.honoursExplicitProxy else { return try await expectURLSessionRefusal(client, server, proxy) }
            let response = try await client.send(try Request(url: server.url("/small")))
            #expect(response.head.status == .ok)
            #expect(proxy.traffic.credentials == ["alice:s3cret"])
            #expect(proxy.traffic.refusedForCredentials == 0)
            #expect(proxy.traffic.passedThrough == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func missingCredentialsFailWithConnectionFailedNamingTheProxy(kind: TransportKind) async throws {
        try await withProxy(kind, requiring: ("alice", "s3cret")) { proxy, _ in
            try ProxyConfiguration(url: proxy.url)
        } _: { client, server, proxy in
            guard kind.honoursExplicitProxy else { return try await expectURLSessionRefusal(client, server, proxy) }
            let error = try #require(await failure(of: client, try Request(url: server.url("/small"))))
            #expect(error.kind == .connectionFailed)
            #expect(error.message.contains("The proxy 127.0.0.1:\(proxy.port) answered 407"))
            #expect(error.message.contains("it needs credentials"))
            #expect(proxy.traffic.refusedForCredentials == 1)
            #expect(server.requestCount(path: "/small") == 0)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func refusedCredentialsNeverAppearInErrorsLogsOrHAR(kind: TransportKind) async throws {
        let password = "wrong-Pa55-XYZZY"
        let log = CapturedLog()
        let har = HARRecorder()
        let logging = LoggingInterceptor(configuration: LoggingConfiguration(logger: log.logger(level: .trace)))
        try await withProxy(kind, requiring: ("alice", "s3cret"), interceptors: [har.interceptor, logging]) { proxy, _ in
            try ProxyConfiguration(url: proxy.url(user: "alice", password: password))
        } _: { client, server, proxy in
            let error = try #require(await failure(of: client, try Request(url: server.url("/small?tag=x"))))
            if kind.honoursExplicitProxy {
                #expect(error.kind == .connectionFailed)
                #expect(error.message.contains("refused the credentials given for user 'alice'"))
                #expect(proxy.traffic.credentials == ["alice:\(password)"], "the proxy did receive them")
            } else {
                #expect(error.kind == .transport)
                #expect(error.message.contains("alice:<redacted>@127.0.0.1:\(proxy.port)"))
            }
            let texts = [
                error.message, error.description, String(describing: error), String(reflecting: error),
                error.underlyingError.map { String(describing: $0) } ?? "", log.text, har.json()
            ]
            for text in texts { #expect(!text.contains(password), "the password leaked into: \(text)") }
            #expect(!log.text.isEmpty)
            #expect(har.count == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func noProxyHostsGoDirect(kind: TransportKind) async throws {
        try await withProxy(
            kind,
            { proxy, _ in
                try ProxyConfiguration(url: proxy.url, noProxy: "example.com, 127.0.0.0/8")
            }
        ) { client, server, proxy in
            guard kind.honoursExplicitProxy else { return try await expectURLSessionRefusal(client, server, proxy) }
            let response = try await client.send(try Request(url: server.url("/small")))
            #expect(response.head.status == .ok)
            #expect(server.requestCount(path: "/small") == 1)
            #expect(proxy.traffic == ProxyTraffic(), "the proxy saw nothing")
            #expect(proxy.openConnections == 0)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func onlyTheSchemeWithAProxyUsesIt(kind: TransportKind) async throws {
        try await withProxy(
            kind,
            { proxy, _ in
                ProxyConfiguration(httpProxy: nil, httpsProxy: try ProxyServer(url: proxy.url))
            }
        ) { client, server, proxy in
            guard kind.honoursExplicitProxy else { return try await expectURLSessionRefusal(client, server, proxy) }
            let response = try await client.send(try Request(url: server.url("/small")))
            #expect(response.head.status == .ok)
            #expect(proxy.traffic.passedThrough == 0)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anUnreachableProxyIsAConnectionFailureNamingIt(kind: TransportKind) async throws {
        // A proxy port that refuses for the whole test (a shut-down proxy's port could be taken by
        // another test's server).
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let port = refusing.port
        try await withProxy(kind, { _, _ in try ProxyConfiguration(url: "127.0.0.1:\(port)") }) { client, server, proxy in
            let error = try #require(await failure(of: client, try Request(url: server.url("/small"))))
            if kind.honoursExplicitProxy {
                #expect(error.kind == .connectionFailed)
                #expect(error.message.hasPrefix("Could not connect to the proxy 127.0.0.1:\(port) (for a request to \(origin(server)))"))
            } else {
                #expect(error.kind == .transport)
            }
            #expect(server.requestCount(path: "/small") == 0)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aTunnelTheProxyRefusesIsAConnectionFailureNamingIt(kind: TransportKind) async throws {
        let refusing = try RefusingPort()  // the tunnel's target refuses for the whole test
        defer { refusing.close() }
        let closedPort = refusing.port
        try await withProxy(kind, { proxy, _ in try ProxyConfiguration(url: proxy.url, tunnelsHTTP: true) }) { client, server, proxy in
            guard kind.honoursExplicitProxy else { return try await expectURLSessionRefusal(client, server, proxy) }
            let error = try #require(await failure(of: client, try Request(url: "http://127.0.0.1:\(closedPort)/small")))
            #expect(error.kind == .connectionFailed)
            #expect(error.message.contains("The proxy 127.0.0.1:\(proxy.port) "))
            #expect(error.message.contains("tunnel to 127.0.0.1:\(closedPort)"))
            #expect(proxy.traffic.failed == 1, "the proxy answered 502")
        }
    }
}
