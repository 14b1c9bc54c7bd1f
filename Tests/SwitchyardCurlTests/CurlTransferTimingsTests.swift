import HTTPTypes
import Switchyard
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// libcurl's phases over TLS, a reused connection, and the connection events of the curl transport.
@Suite(.timeLimit(.minutes(2))) struct CurlTransferTimingsTests {
    /// A first request opens a connection and reports every phase, in order; the second, over the
    /// same connection, reports none of the connection's own (`connect`, `tls`), as `TransferTimings`
    /// documents; each gets its connection event, and the connection's closing at shutdown is
    /// published on the last exchange that went over it.
    @Test(arguments: [false, true])
    func everyPhaseOverTLSInOrderThenAReusedConnection(http2: Bool) async throws {
        let bus = EventBus()
        let events = CollectedEvents(bus)
        try await withTLSLoopbackClient(.curl, http2: http2, events: bus) { client, server, transport in
            var request = try Request(url: server.url("/small"))
            request.options.publishesConnectionEvents = true
            let first = try await client.send(request)
            let second = try await client.send(request)
            #expect(server.acceptedConnections == 1)

            let new = first.timings
            let dns = try #require(new.dns)
            let connect = try #require(new.connect)
            let tls = try #require(new.tls)
            let requestStart = try #require(new.requestStart)
            let firstByte = try #require(new.firstByte)
            let total = try #require(new.total)
            #expect(dns <= connect && connect <= tls && tls <= requestStart && requestStart <= firstByte && firstByte <= total)
            #expect(new.newConnections == 1)
            #expect(new.remoteAddress == "127.0.0.1")
            #expect(new.remotePort == server.port)
            #expect(new.httpVersion == (http2 ? .http2 : .http1_1))

            let reused = second.timings
            #expect(reused.connect == nil && reused.tls == nil)
            #expect(reused.newConnections == 0)
            #expect(reused.dns != nil)  // curl's lookup in its DNS cache
            #expect(reused.requestStart != nil && reused.firstByte != nil && reused.total != nil)
            #expect(phasesAreOrdered(reused), "\(reused)")
            #expect(reused.remoteAddress == "127.0.0.1" && reused.remotePort == server.port)

            // Published before the response was returned, in order.
            #expect(events.connectionEvents(of: first.context.id) == ["connectionOpened", "tlsNegotiated"])
            #expect(events.connectionEvents(of: second.context.id) == ["connectionReused"])
            let opened = try #require(events.connection("connectionOpened", of: first.context.id))
            #expect(opened.id != nil)
            #expect(opened.remoteAddress == "127.0.0.1" && opened.remotePort == server.port)
            #expect(events.connection("connectionReused", of: second.context.id) == opened)
            let handshake = try #require(events.tlsNegotiated(of: first.context.id))
            #expect(handshake.connection == opened)
            #expect(handshake.protocolVersion == "TLS 1.3" && handshake.version == .v1_3)
            #expect(handshake.applicationProtocol == (http2 ? "h2" : "http/1.1"))

            try await transport.shutdown()
            #expect(await eventually { events.connectionEvents(of: second.context.id).contains("connectionClosed") })
            #expect(events.connection("connectionClosed", of: second.context.id) == opened)
            #expect(events.connectionEvents(of: first.context.id) == ["connectionOpened", "tlsNegotiated"])
        }
    }

    /// A request that does not ask gets no connection event (and still every phase): the default costs
    /// nothing.
    @Test func noConnectionEventUnlessTheRequestAsks() async throws {
        let bus = EventBus()
        let events = CollectedEvents(bus)
        try await withTLSLoopbackClient(.curl, events: bus) { client, server, transport in
            let response = try await client.send(try Request(url: server.url("/small")))
            try await transport.shutdown()
            #expect(events.all.isEmpty, "\(events.names)")
            #expect(response.timings.tls != nil && response.timings.newConnections == 1)
        }
    }

    /// The server closes the connection with its response (`Connection: close`): the closing belongs
    /// to that exchange and is published before its response is returned.
    @Test func aConnectionTheServerClosesIsPublishedWithTheExchange() async throws {
        let bus = EventBus()
        let events = CollectedEvents(bus)
        try await withLoopbackServer { server in
            let transport = CurlTransport()
            let client = Client(transport: transport, interceptors: [], events: bus)
            var request = try Request(url: server.url("/small"), headers: ["Connection": "close"])
            request.options.publishesConnectionEvents = true
            let response = try await client.send(request)
            try await transport.shutdown()
            #expect(events.connectionEvents(of: response.context.id) == ["connectionOpened", "connectionClosed"])
            #expect(response.timings.tls == nil && response.timings.connect != nil)
        }
    }

    /// Each attempt reports its own phases: a retry over the connection the first attempt opened
    /// reports no connect phase, not the first attempt's.
    @Test func aRetryReportsItsOwnAttemptsPhases() async throws {
        try await withLoopbackServer { server in
            let transport = CurlTransport()
            let retry = RetryInterceptor(
                policy: RetryPolicy(maxAttempts: 2, backoff: RetryBackoff(random: { 0 })), budget: nil)
            let client = Client(transport: transport, interceptors: [retry])
            let response = try await client.send(try Request(url: server.url("/flaky/retry-phases/1")))
            try await transport.shutdown()
            #expect(response.head.status.code == 200)
            #expect(response.context.attempt == 2)
            #expect(response.timings.newConnections == 0)
            #expect(response.timings.connect == nil)
        }
    }
}
