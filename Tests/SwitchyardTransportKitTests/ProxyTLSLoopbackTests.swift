import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// HTTPS through a `CONNECT` tunnel: the proxy relays the TLS bytes and never sees the request.
@Suite(.timeLimit(.minutes(2))) struct ProxyTLSLoopbackTests {
    /// URLSession is given the same configuration and refuses it, as declared (`URLSessionTransport`,
    /// "TLS"): custom trust roots fail every request with a typed `tls` error before anything is sent.
    @Test(arguments: TransportKind.allCases)
    func anHTTPSRequestGoesThroughAConnectTunnel(kind: TransportKind) async throws {
        let certificates = try TestCertificates.generate()
        defer { certificates.remove() }
        let proxy = try await LoopbackProxy.start(requiringCredentials: (user: "alice", password: "s3cret"))
        try await withLoopbackServer(.init(tls: .init(identity: certificates.server))) { server in
            let configuration = try ProxyConfiguration(url: proxy.url(user: "alice", password: "s3cret"))
            let tls = TLSOptions(trustRoots: .systemAnd(certificateFiles: [certificates.ca.certificateFile]))
            let transport = kind.make(proxy: configuration, tls: tls)
            defer { Task { try? await transport.shutdown() } }
            let client = Client(transport: transport, interceptors: [])
            #expect(server.baseURL.hasPrefix("https://"))
            guard kind != .urlSession else {
                let error = await failure(of: client, try Request(url: server.url("/small")))
                #expect(error?.kind == .tls, "\(String(describing: error))")
                #expect(error?.message.contains("custom trust roots") == true, "\(String(describing: error))")
                #expect(proxy.traffic.passedThrough == 0)
                #expect(proxy.tunnels(to: "127.0.0.1:\(server.port)") == 0)
                #expect(server.acceptedConnections == 0)
                return
            }
            let response = try await client.send(try Request(url: server.url("/small")))
            #expect(response.head.status == .ok)
            #expect(response.text == "hello, world\n")
            #expect(proxy.tunnels(to: "127.0.0.1:\(server.port)") == 1)
            #expect(proxy.forwardedRequests(to: "127.0.0.1:\(server.port)") == 0)
            #expect(proxy.traffic.credentials.contains { $0.contains("alice") })
        }
        try await proxy.shutdown()
    }
}

/// The README's "TLS and proxies" example, with real files and pins, against the HTTPS server.
@Suite(.timeLimit(.minutes(2))) struct TLSReadmeExampleTests {
    @Test func aPinnedCorporateCAThroughTheEnvironmentsProxySetting() async throws {
        let certificates = try TestCertificates.generate()
        defer { certificates.remove() }
        try await withLoopbackServer(.init(tls: .init(identity: certificates.server))) { server in
            var configuration = CurlTransport.Configuration()
            configuration.tls = TLSOptions(
                trustRoots: .systemAnd(certificateFiles: [certificates.ca.certificateFile]),
                pinnedPublicKeys: [try .init(certificates.server.publicKeyPin)])
            configuration.proxy = try ProxyConfiguration.fromEnvironment([:])  // no proxy variables: direct
            let transport = CurlTransport(configuration: configuration)
            let client = Client(transport: transport, interceptors: [])
            #expect(try await client.send(try Request(url: server.url("/small"))).head.status == .ok)
            try await transport.shutdown()
        }
    }
}
