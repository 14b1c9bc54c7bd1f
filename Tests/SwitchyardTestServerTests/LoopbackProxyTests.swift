import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// The loopback proxy spoken to byte by byte.
@Suite(.timeLimit(.minutes(2))) struct LoopbackProxyTests {
    @Test func forwardsAnAbsoluteFormRequestInOriginFormWithoutProxyFields() async throws {
        let proxy = try await LoopbackProxy.start()
        defer { Task { try? await proxy.shutdown() } }
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: proxy.port)
            try connection.send(
                "GET \(server.url("/echo?x=1")) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
                    + "Proxy-Authorization: Basic YTpi\r\nProxy-Connection: keep-alive\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(response.value("Connection") == "close")
            let echoed = String(decoding: response.body, as: UTF8.self)
            #expect(echoed.contains(#""uri":"/echo?x=1""#))
            #expect(!echoed.lowercased().contains("proxy-"))
            #expect(proxy.traffic.forwardedURLs == [server.url("/echo?x=1")])
            #expect(proxy.traffic.credentials == ["a:b"])
        }
    }

    @Test func tunnelsBytesBothWaysAfterConnect() async throws {
        let proxy = try await LoopbackProxy.start()
        defer { Task { try? await proxy.shutdown() } }
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: proxy.port)
            try connection.send("CONNECT 127.0.0.1:\(server.port) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
            #expect(try connection.readResponse(bodiless: true).status == 200)
            for _ in 0..<2 {
                try connection.send("GET /small HTTP/1.1\r\nHost: x\r\n\r\n")
                let response = try connection.readResponse()
                #expect(String(decoding: response.body, as: UTF8.self) == "hello, world\n")
            }
            #expect(proxy.tunnels(to: "127.0.0.1:\(server.port)") == 1)
            #expect(server.requestCount(path: "/small") == 2)
        }
    }

    @Test func refusesWithoutCredentialsAndReachesOnlyLoopback() async throws {
        let proxy = try await LoopbackProxy.start(requiringCredentials: ("u", "p"))
        defer { Task { try? await proxy.shutdown() } }
        let missing = try RawConnection(port: proxy.port)
        try missing.send("CONNECT 127.0.0.1:1 HTTP/1.1\r\n\r\n")
        let refused = try missing.readResponse()
        #expect(refused.status == 407)
        #expect(refused.value("Proxy-Authenticate") == "Basic realm=\"loopback proxy\"")
        let outside = try RawConnection(port: proxy.port)
        try outside.send("GET http://example.com/ HTTP/1.1\r\nProxy-Authorization: Basic dTpw\r\n\r\n")
        #expect(try outside.readResponse().status == 403)
        let originForm = try RawConnection(port: proxy.port)
        try originForm.send("GET / HTTP/1.1\r\nProxy-Authorization: Basic dTpw\r\n\r\n")
        #expect(try originForm.readResponse().status == 400)
        #expect(proxy.traffic.refusedForCredentials == 1)
        #expect(proxy.traffic.failed == 2)
        #expect(proxy.traffic.passedThrough == 0)
    }
}
