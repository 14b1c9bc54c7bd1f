import AsyncHTTPClient
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct AsyncHTTPClientTransportLifecycleTests {
    @Test func aWrappedClientIsNeverShutDownByTheTransport() async throws {
        let server = try await LoopbackServer.start()
        let httpClient = HTTPClient(configuration: AsyncHTTPClientTransport.Configuration().httpClientConfiguration)
        do {
            let transport = AsyncHTTPClientTransport(wrapping: httpClient)
            #expect(!transport.ownsClient)
            let response = try await Client(transport: transport, interceptors: []).send(try Request(url: server.url("/gzip")))
            #expect(response.text == String(repeating: "hello, gzip\n", count: 100))
            try await transport.shutdown()  // does nothing for a wrapped client
        }
        // The transport is gone; the app's client still works and is the app's to shut down.
        let again = try await Client(transport: AsyncHTTPClientTransport(wrapping: httpClient), interceptors: [])
            .send(try Request(url: server.url("/small")))
        #expect(again.text == "hello, world\n")
        try await httpClient.shutdown()
        try await server.shutdown()
    }

    @Test func anOwnedClientIsShutDownOnceAndThenRefusesRequests() async throws {
        let server = try await LoopbackServer.start()
        let transport = AsyncHTTPClientTransport()
        #expect(transport.ownsClient)
        let client = Client(transport: transport, interceptors: [])
        _ = try await client.send(try Request(url: server.url("/small")))
        try await transport.shutdown()
        try await transport.shutdown()  // a second call does nothing
        let error = await failure(of: client, try Request(url: server.url("/small")))
        print("AHC request after shutdown: \(String(describing: error))")
        #expect(error?.kind == .transport)
        #expect(error?.message.contains("shut down") == true)
        try await server.shutdown()
    }

    @Test func aForgottenShutdownDoesNotCrash() async throws {
        let server = try await LoopbackServer.start()
        do {
            let transport = AsyncHTTPClientTransport()
            _ = try await Client(transport: transport, interceptors: []).send(try Request(url: server.url("/small")))
        }
        // The transport is gone without shutdown(); its client shuts down in the background. A debug
        // build of AsyncHTTPClient would trap here if the client were deinitialised while running.
        #expect(await eventually { server.openConnections == 0 })
        try await server.shutdown()
    }

    @Test func aStreamingBodyKeepsAnOwnedClientAlive() async throws {
        let server = try await LoopbackServer.start()
        var response: StreamedResponse?
        do {
            let transport = AsyncHTTPClientTransport()
            response = try await Client(transport: transport, interceptors: []).stream(try Request(url: server.url("/bytes/3000000")))
        }
        // The last reference to the transport is the body: reading it must still work.
        let bytes = try await response?.body.collect(upTo: 4_000_000)
        #expect(bytes?.count == 3_000_000)
        response = nil
        #expect(await eventually { server.openConnections == 0 })
        try await server.shutdown()
    }

    @Test func aWrappedClientThatFollowsRedirectsIsReportedNotHidden() async throws {
        let server = try await LoopbackServer.start()
        let followingClient = HTTPClient()  // AsyncHTTPClient's default configuration follows redirects
        let client = Client(transport: AsyncHTTPClientTransport(wrapping: followingClient), interceptors: [])
        let error = await failure(of: client, try Request(url: server.url("/redirect/1")))
        print("AHC wrapped client following a redirect: \(String(describing: error))")
        #expect(error?.kind == .transport)
        #expect(error?.message.contains("redirectConfiguration") == true)
        try await followingClient.shutdown()
        try await server.shutdown()
    }
}
