import HTTPTypes
import Switchyard
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// The transports that can reach the HTTPS test server (its CA is generated per test, and URLSession
/// cannot trust a custom CA on Linux: see `URLSessionTLSLimitation`).
private let h2Transports: [TransportKind] = [.curl, .asyncHTTPClient]

/// Starts an HTTPS loopback server offering `h2` and `http/1.1` by ALPN and runs `body` with a client
/// whose `kind` transport trusts its CA; shuts both down afterwards.
private func withHTTP2Server(
    _ kind: TransportKind,
    http1Only: Bool = false,
    _ body: (LoopbackServer, Client) async throws -> Void
) async throws {
    let certificates = try TestCertificates.generate()
    defer { certificates.remove() }
    let serving = LoopbackServer.TLS(identity: certificates.server, applicationProtocols: ["h2", "http/1.1"])
    try await withLoopbackServer(.init(tls: serving)) { server in
        let options = TLSOptions(trustRoots: .only(certificateFiles: [certificates.ca.certificateFile]))
        let transport = kind.make(tls: options, http1Only: http1Only)
        do {
            try await body(server, Client(transport: transport, interceptors: []))
        } catch {
            try? await transport.shutdown()
            throw error
        }
        try? await transport.shutdown()
    }
}

@Suite(.timeLimit(.minutes(2))) struct HTTP2LoopbackTests {
    @Test(arguments: h2Transports)
    func negotiatesHTTP2OverTLSAndReportsIt(kind: TransportKind) async throws {
        try await withHTTP2Server(kind) { server, client in
            let response = try await client.send(try Request(url: server.url("/echo")))
            #expect(response.head.status.code == 200)
            #expect(response.httpVersion == .http2)
            #expect(response.timings.httpVersion?.description == "2")
            // The server saw the request on an HTTP/2 stream.
            #expect(response.text.contains("\"version\":\"HTTP/2.0\""), "\(response.text)")
            #expect(server.negotiatedProtocols == ["h2"])
            #expect(server.acceptedConnections == 1)
        }
    }

    @Test(arguments: h2Transports)
    func http1OnlyForcesHTTP11OverTLS(kind: TransportKind) async throws {
        try await withHTTP2Server(kind, http1Only: true) { server, client in
            let response = try await client.send(try Request(url: server.url("/echo")))
            #expect(response.head.status.code == 200)
            #expect(response.httpVersion == .http1_1)
            #expect(response.timings.httpVersion?.description == "1.1")
            #expect(response.text.contains("\"version\":\"HTTP/1.1\""), "\(response.text)")
            #expect(server.negotiatedProtocols == ["http/1.1"])
        }
    }

    /// 100 requests held at the server at once (so they are truly concurrent), then released: every one
    /// answered over HTTP/2, all on one TCP connection. A first request opens the connection, so the 100
    /// find it established (see `coldBurstConnections` for a burst without one).
    @Test(arguments: h2Transports)
    func hundredConcurrentRequestsShareOneConnection(kind: TransportKind) async throws {
        try await withHTTP2Server(kind) { server, client in
            _ = try await client.send(try Request(url: server.url("/small")))
            let versions = try await withThrowingTaskGroup(of: HTTPProtocolVersion?.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        let response = try await client.send(try Request(url: server.url("/gate/many?id=\(index)")))
                        #expect(response.text == "\(index)\n")
                        return response.httpVersion
                    }
                }
                #expect(await eventually { server.gate(key: "many").held == 100 })
                server.release(key: "many")
                var versions: [HTTPProtocolVersion?] = []
                for try await version in group { versions.append(version) }
                return versions
            }
            #expect(versions.count == 100)
            #expect(versions.allSatisfy { $0 == .http2 })
            #expect(server.gate(key: "many").maxConcurrent == 100)
            #expect(server.acceptedConnections == 1)
            #expect(server.negotiatedProtocols == ["h2"])
        }
    }

    /// 100 concurrent requests with no connection open yet: curl waits for the first connection to learn
    /// it multiplexes (`CURLOPT_PIPEWAIT`) and opens one; AsyncHTTPClient also ends up multiplexing on one
    /// HTTP/2 connection (the figure is asserted, not assumed: see the README's transports table).
    @Test(arguments: h2Transports)
    func coldBurstConnections(kind: TransportKind) async throws {
        try await withHTTP2Server(kind) { server, client in
            try await withThrowingTaskGroup(of: HTTPProtocolVersion?.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        try await client.send(try Request(url: server.url("/gate/cold?id=\(index)"))).httpVersion
                    }
                }
                #expect(await eventually { server.gate(key: "cold").held == 100 })
                server.release(key: "cold")
                for try await version in group { #expect(version == .http2) }
            }
            #expect(server.acceptedConnections == 1, "\(server.negotiatedProtocols)")
        }
    }

    /// One of five streams held at the server is cancelled: the other four complete, on the same connection.
    @Test(arguments: h2Transports)
    func cancellingOneStreamLeavesTheOthers(kind: TransportKind) async throws {
        try await withHTTP2Server(kind) { server, client in
            let doomed = Task { try await client.send(try Request(url: server.url("/gate/cancel?id=doomed"))) }
            #expect(await eventually { server.gate(key: "cancel").held == 1 })
            let others = (0..<4).map { index in
                Task { try await client.send(try Request(url: server.url("/gate/cancel?id=\(index)"))) }
            }
            #expect(await eventually { server.gate(key: "cancel").held == 5 })
            doomed.cancel()
            let failure = await #expect(throws: SwitchyardError.self) { try await doomed.value }
            #expect(failure?.kind == .cancelled)
            server.release(key: "cancel")
            for (index, task) in others.enumerated() {
                let response = try await task.value
                #expect(response.head.status.code == 200)
                #expect(response.text == "\(index)\n")
                #expect(response.httpVersion == .http2)
            }
            // The connection survived the reset stream: a later request reuses it.
            let after = try await client.send(try Request(url: server.url("/small")))
            #expect(after.httpVersion == .http2)
            #expect(server.acceptedConnections == 1)
        }
    }

    /// The acceptance case at full width: 100 streams held at the server at once on one connection, one of
    /// them cancelled: the other 99 complete on that same connection.
    @Test(arguments: h2Transports)
    func cancellingOneOfAHundredStreamsLeavesTheOthers(kind: TransportKind) async throws {
        try await withHTTP2Server(kind) { server, client in
            _ = try await client.send(try Request(url: server.url("/small")))
            let doomed = Task { try await client.send(try Request(url: server.url("/gate/hundred?id=doomed"))) }
            #expect(await eventually { server.gate(key: "hundred").held == 1 })
            let others = (0..<99).map { index in
                Task { try await client.send(try Request(url: server.url("/gate/hundred?id=\(index)"))) }
            }
            #expect(await eventually { server.gate(key: "hundred").held == 100 })
            doomed.cancel()
            let failure = await #expect(throws: SwitchyardError.self) { try await doomed.value }
            #expect(failure?.kind == .cancelled)
            server.release(key: "hundred")
            for (index, task) in others.enumerated() {
                let response = try await task.value
                #expect(response.text == "\(index)\n")
                #expect(response.httpVersion == .http2)
            }
            #expect(server.gate(key: "hundred").maxConcurrent == 100)
            #expect(server.acceptedConnections == 1)
        }
    }

    /// Against an HTTPS server offering only HTTP/1.1, waiting for multiplexing (curl's `CURLOPT_PIPEWAIT`)
    /// must not queue concurrent requests behind one connection: each gets its own.
    @Test(arguments: h2Transports)
    func http1OnlyServerStillGetsConcurrentConnections(kind: TransportKind) async throws {
        let certificates = try TestCertificates.generate()
        defer { certificates.remove() }
        try await withLoopbackServer(.init(tls: .init(identity: certificates.server))) { server in
            let options = TLSOptions(trustRoots: .only(certificateFiles: [certificates.ca.certificateFile]))
            let transport = kind.make(tls: options)
            let client = Client(transport: transport, interceptors: [])
            let tasks = (0..<4).map { index in
                Task { try await client.send(try Request(url: server.url("/gate/h1?id=\(index)"))) }
            }
            #expect(await eventually { server.gate(key: "h1").held == 4 })
            server.release(key: "h1")
            for task in tasks {
                let response = try await task.value
                #expect(response.httpVersion == .http1_1)
            }
            #expect(server.acceptedConnections == 4)
            try? await transport.shutdown()
        }
    }

    /// URLSession on Linux: FoundationNetworking does not expose the HTTP version of a response, so the
    /// transport reports `nil` (and `yard request -w '%{json}'` prints `"http_version": null`).
    @Test func urlSessionCannotTellTheVersion() async throws {
        try await withLoopbackServer { server in
            let transport = TransportKind.urlSession.make()
            let response = try await Client(transport: transport, interceptors: []).send(try Request(url: server.url("/small")))
            try? await transport.shutdown()
            #expect(response.head.status.code == 200)
            #expect(response.httpVersion == nil)
        }
    }

    @Test func versionDescriptions() {
        #expect(HTTPProtocolVersion.http1_0.description == "1.0")
        #expect(HTTPProtocolVersion.http1_1.description == "1.1")
        #expect(HTTPProtocolVersion.http2.description == "2")
    }
}
