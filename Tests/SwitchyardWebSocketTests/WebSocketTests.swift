import HTTPTypes
import Switchyard
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardWebSocket
import Testing

/// WebSocket connections against the loopback server's peers.
@Suite(.timeLimit(.minutes(2)))
struct WebSocketTests {
    private func url(_ server: LoopbackServer, _ path: String) -> String {
        "ws://" + server.url(path).dropFirst("http://".count)
    }

    @Test func textAndAOneMebibyteBinaryMessageEchoAndACleanCloseEndsTheSequence() async throws {
        try await withLoopbackServer { server in
            let socket = try await WebSocketClient().connect(url: url(server, "/ws/echo?key=echo"))
            #expect(socket.handshake.status.code == 101)
            try await socket.send(.text("hello"))
            let big = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            try await socket.send(.binary(big))
            var iterator = socket.makeAsyncIterator()
            #expect(try await iterator.next() == .text("hello"))
            #expect(try await iterator.next() == .binary(big))
            await socket.close(code: 1000, reason: "done")
            #expect(try await iterator.next() == nil)
            #expect(socket.closeCode == 1000, "the server echoed our close")
            #expect(server.webSocketLog(key: "echo") == ["message:5", "message:1048576", "close:1000:done"])
        }
    }

    @Test func fragmentedMessagesArriveWhole() async throws {
        try await withLoopbackServer { server in
            let socket = try await WebSocketClient().connect(url: url(server, "/ws/fragments?key=f"))
            let text = String(repeating: "fragmented text · ", count: 100)
            try await socket.send(.text(text))
            var iterator = socket.makeAsyncIterator()
            #expect(try await iterator.next() == .text(text))
            await socket.close()
        }
    }

    @Test func pingsAreAnsweredBothWays() async throws {
        try await withLoopbackServer { server in
            let socket = try await WebSocketClient().connect(url: url(server, "/ws/ping?key=p"))
            try await socket.ping(Array("client ping".utf8))  // the server's pong arrives
            try await socket.send(.text("after ping"))
            var iterator = socket.makeAsyncIterator()
            #expect(try await iterator.next() == .text("after ping"))
            #expect(server.webSocketLog(key: "p").first == "pong:are you there", "our automatic pong came before the message")
            await socket.close()
        }
    }

    @Test func theServersCloseCodeAndReasonAreKept() async throws {
        try await withLoopbackServer { server in
            let socket = try await WebSocketClient().connect(url: url(server, "/ws/close?key=c"))
            var iterator = socket.makeAsyncIterator()
            #expect(try await iterator.next() == nil)
            #expect(socket.closeCode == 4000)
            #expect(socket.closeReason == "server says bye")
            #expect(await eventually { server.webSocketLog(key: "c").contains { $0.hasPrefix("close:4000:") } })
        }
    }

    @Test func anOversizedMessageIsRefusedWith1009() async throws {
        try await withLoopbackServer { server in
            let client = try WebSocketClient(options: WebSocketOptions(maximumMessageBytes: 64 * 1024))
            let socket = try await client.connect(url: url(server, "/ws/oversized?key=o&size=1000000"))
            var iterator = socket.makeAsyncIterator()
            let error = await #expect(throws: SwitchyardError.self) { _ = try await iterator.next() }
            #expect(error?.kind == .responseTooLarge)
            #expect(await eventually { server.webSocketLog(key: "o").contains { $0.hasPrefix("close:1009:") } })
        }
    }

    @Test func anAbruptCloseIsATypedError() async throws {
        try await withLoopbackServer { server in
            let socket = try await WebSocketClient().connect(url: url(server, "/ws/abrupt?key=a"))
            try await socket.send(.text("bye?"))
            var iterator = socket.makeAsyncIterator()
            let error = await #expect(throws: SwitchyardError.self) { _ = try await iterator.next() }
            #expect(error?.kind == .webSocketClosed)
        }
    }

    @Test func cancellingTheReaderClosesWithGoingAway() async throws {
        try await withLoopbackServer { server in
            let socket = try await WebSocketClient().connect(url: url(server, "/ws/echo?key=g"))
            let reader = Task { for try await _ in socket {} }
            try await socket.send(.text("x"))
            #expect(await eventually { server.webSocketLog(key: "g").contains { $0.hasPrefix("message:1") } })
            reader.cancel()
            _ = await reader.result
            #expect(await eventually { server.webSocketLog(key: "g").contains { $0.hasPrefix("close:1001:") } })
        }
    }

    @Test func theHandshakeGoesThroughTheChainAndAStatusOtherThan101IsTyped() async throws {
        try await withLoopbackServer { server in
            var configuration = ClientConfiguration()
            configuration.headers = [HeaderRules(owner: "app", rules: [.set("X-Team", "realtime")])]
            let client = try WebSocketClient(configuration: configuration)
            let refused = await #expect(throws: SwitchyardError.self) {
                _ = try await client.connect(try Request(url: server.url("/echo")))
            }
            #expect(refused?.kind == .webSocketHandshake)
            #expect(refused?.message.contains("200") == true)
            #expect(refused?.message.contains("X-Team") == true, "the echoed handshake carried the chain's header")
            let redirected = await #expect(throws: SwitchyardError.self) {
                _ = try await client.connect(try Request(url: server.url("/redirect/1")))
            }
            #expect(redirected?.message.contains("redirects") == true)
        }
    }
}

/// README.md's WebSocket example, compiled, not run (its URL is not on loopback); the tests above run
/// the same calls against the loopback server's peers.
func readmeWebSocketExample(configuration: ClientConfiguration, handle: (WebSocketMessage) -> Void) async throws {
    let webSockets = try WebSocketClient(configuration: configuration)
    let socket = try await webSockets.connect(url: "wss://api.example.com/live")
    try await socket.send(.text("subscribe"))
    for try await message in socket { handle(message) }  // ends at the server's close; socket.closeCode
}
