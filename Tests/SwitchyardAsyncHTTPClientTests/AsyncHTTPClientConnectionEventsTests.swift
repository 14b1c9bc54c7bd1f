import AsyncHTTPClient
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardConformance
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// What AsyncHTTPClient's public API lets the transport tell about connections: the phases and events
/// of a request that asks for connection events, over TLS, HTTP/1.1 and HTTP/2.
@Suite(.timeLimit(.minutes(2))) struct AsyncHTTPClientConnectionEventsTests {
    /// A first request opens a connection: its TLS phase (when AsyncHTTPClient handed the connection
    /// over), request start, first byte and total, in order, without DNS or connect (AsyncHTTPClient
    /// does not tell them); the second reuses it and reports no TLS phase. Events as on curl, the
    /// closing at shutdown included.
    @Test(arguments: [false, true])
    func phasesAndEventsOverTLS(http2: Bool) async throws {
        let bus = EventBus()
        let events = CollectedEvents(bus)
        try await withTLSLoopbackClient(.asyncHTTPClient, http2: http2, events: bus) { client, server, transport in
            var request = try Request(url: server.url("/small"))
            request.options.publishesConnectionEvents = true
            let first = try await client.send(request)
            let second = try await client.send(request)
            #expect(server.acceptedConnections == 1)

            let new = first.timings
            #expect(new.dns == nil && new.connect == nil)
            let tls = try #require(new.tls)
            let requestStart = try #require(new.requestStart)
            let firstByte = try #require(new.firstByte)
            let total = try #require(new.total)
            #expect(tls <= requestStart && requestStart <= firstByte && firstByte <= total)
            #expect(new.newConnections == 1)
            #expect(new.remoteAddress == "127.0.0.1" && new.remotePort == server.port)
            #expect(new.httpVersion == (http2 ? .http2 : .http1_1))

            let reused = second.timings
            #expect(reused.connect == nil && reused.tls == nil && reused.dns == nil)
            #expect(reused.newConnections == 0)
            #expect(reused.requestStart != nil && phasesAreOrdered(reused), "\(reused)")

            #expect(events.connectionEvents(of: first.context.id) == ["connectionOpened", "tlsNegotiated"])
            #expect(events.connectionEvents(of: second.context.id) == ["connectionReused"])
            let opened = try #require(events.connection("connectionOpened", of: first.context.id))
            #expect(opened.id != nil && opened.remoteAddress == "127.0.0.1" && opened.remotePort == server.port)
            #expect(events.connection("connectionReused", of: second.context.id) == opened)
            let handshake = try #require(events.tlsNegotiated(of: first.context.id))
            #expect(handshake.protocolVersion == "TLS 1.3" && handshake.version == .v1_3)
            #expect(handshake.applicationProtocol == (http2 ? "h2" : "http/1.1"))

            try await transport.shutdown()
            #expect(await eventually { events.connectionEvents(of: second.context.id).contains("connectionClosed") })
            #expect(events.connection("connectionClosed", of: second.context.id) == opened)
        }
    }

    /// The field that tells the connection handler which request it sees never reaches the server,
    /// over HTTP/1.1 and on an HTTP/2 stream; the request arrives as sent.
    @Test(arguments: [false, true])
    func theProbeFieldNeverReachesTheServer(http2: Bool) async throws {
        try await withTLSLoopbackClient(.asyncHTTPClient, http2: http2) { client, server, _ in
            var request = try Request(url: server.url("/echo"), headers: ["X-Kept": "1"])
            request.options.publishesConnectionEvents = true
            for _ in 0..<2 {
                let echo = try EchoReport(try await client.send(request))
                #expect(echo.values(of: "X-Kept") == ["1"])
                #expect(!echo.names.contains { $0.lowercased().contains("switchyard") }, "\(echo.names)")
            }
        }
    }

    /// Without the option nothing is watched: no event, and only the phases every request gets.
    @Test func nothingIsWatchedUnlessTheRequestAsks() async throws {
        let bus = EventBus()
        let events = CollectedEvents(bus)
        try await withTLSLoopbackClient(.asyncHTTPClient, events: bus) { client, server, transport in
            let response = try await client.send(try Request(url: server.url("/small")))
            try await transport.shutdown()
            #expect(events.all.isEmpty, "\(events.names)")
            let timings = response.timings
            #expect(timings.tls == nil && timings.requestStart == nil && timings.newConnections == nil)
            #expect(timings.firstByte != nil && timings.total != nil)
        }
    }

    /// A wrapped `HTTPClient` has no connection handler: a request that asks gets no event, and the
    /// probe field is not sent.
    @Test func aWrappedClientPublishesNothingAndSendsNoProbe() async throws {
        let bus = EventBus()
        let events = CollectedEvents(bus)
        try await withLoopbackServer { server in
            let httpClient = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                configuration: AsyncHTTPClientTransport.Configuration().httpClientConfiguration)
            let client = Client(transport: AsyncHTTPClientTransport(wrapping: httpClient), interceptors: [], events: bus)
            var request = try Request(url: server.url("/echo"))
            request.options.publishesConnectionEvents = true
            let echo: EchoReport
            do {
                echo = try EchoReport(try await client.send(request))
            } catch {
                try? await httpClient.shutdown()
                throw error
            }
            try await httpClient.shutdown()
            #expect(!echo.names.contains { $0.lowercased().contains("switchyard") }, "\(echo.names)")
            #expect(events.all.isEmpty, "\(events.names)")
        }
    }
}
