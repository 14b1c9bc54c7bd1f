import Foundation
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

    /// The socket's options with permessage-deflate offered or not.
    private static func options(compressed: Bool, maximumMessageBytes: Int = 16 << 20) -> WebSocketOptions {
        WebSocketOptions(maximumMessageBytes: maximumMessageBytes, compression: compressed ? .permessageDeflate : nil)
    }

    @Test(arguments: [true, false])
    func textAndAOneMebibyteBinaryMessageEchoAndACleanCloseEndsTheSequence(compressed: Bool) async throws {
        try await withLoopbackServer { server in
            let client = try WebSocketClient(options: Self.options(compressed: compressed))
            let socket = try await client.connect(url: url(server, "/ws/echo?key=echo"))
            #expect(socket.handshake.status.code == 101)
            #expect(socket.isCompressed == compressed)
            try await socket.send(.text("hello"))
            let big = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            try await socket.send(.binary(big))
            var iterator = socket.makeAsyncIterator()
            #expect(try await iterator.next() == .text("hello"))
            #expect(try await iterator.next() == .binary(big))
            await socket.close(code: 1000, reason: "done")
            #expect(try await iterator.next() == nil)
            #expect(socket.closeCode == 1000, "the server echoed our close")
            let log = server.webSocketLog(key: "echo")
            #expect(log.count == 3)
            #expect(log.first == "message:5", "a message under minimumMessageBytes goes out uncompressed")
            if compressed {
                let wire = log[1].split(separator: " ").last.flatMap { Int($0) } ?? 0
                #expect(log[1].hasPrefix("message:1048576 deflated from "))
                #expect(wire > 0 && wire < 1 << 16, "a repeating 1 MiB pattern compresses far: \(wire) bytes")
            } else {
                #expect(log[1] == "message:1048576")
            }
            #expect(log.last == "close:1000:done")
        }
    }

    @Test(arguments: [true, false])
    func fragmentedMessagesArriveWhole(compressed: Bool) async throws {
        try await withLoopbackServer { server in
            let client = try WebSocketClient(options: Self.options(compressed: compressed))
            let socket = try await client.connect(url: url(server, "/ws/fragments?key=f"))
            let text = String(repeating: "fragmented text · ", count: 100)
            try await socket.send(.text(text))
            var iterator = socket.makeAsyncIterator()
            #expect(try await iterator.next() == .text(text))
            await socket.close()
        }
    }

    @Test func theCompressedMessagesOfRFC7692AreInflatedWithTheWindowKept() async throws {
        try await withLoopbackServer { server in
            let socket = try await WebSocketClient().connect(url: url(server, "/ws/rfc-hello?key=r"))
            #expect(socket.handshake.headerFields[HTTPField.Name("Sec-WebSocket-Extensions")!] == "permessage-deflate")
            var iterator = socket.makeAsyncIterator()
            #expect(try await iterator.next() == .text("Hello"))
            #expect(try await iterator.next() == .text("Hello"), "the second message refers back into the first")
            await socket.close()
        }
    }

    @Test func withoutContextTakeoverEveryMessageIsCompressedOnItsOwn() async throws {
        let text = String(repeating: "the same sentence, again and again; ", count: 40)
        for noContextTakeover in [false, true] {
            try await withLoopbackServer { server in
                let compression = WebSocketCompression(noContextTakeover: noContextTakeover)
                let client = try WebSocketClient(options: WebSocketOptions(compression: compression))
                let socket = try await client.connect(url: url(server, "/ws/echo?key=t"))
                try await socket.send(.text(text))
                try await socket.send(.text(text))
                var iterator = socket.makeAsyncIterator()
                #expect(try await iterator.next() == .text(text))
                #expect(try await iterator.next() == .text(text))
                await socket.close()
                let sizes = server.webSocketLog(key: "t").filter { $0.hasPrefix("message:") }
                    .compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
                #expect(sizes.count == 2)
                if noContextTakeover {
                    #expect(sizes.first == sizes.last, "each message stands alone: \(sizes)")
                } else {
                    #expect(sizes[1] < sizes[0] / 2, "the second message refers back into the first: \(sizes)")
                }
            }
        }
    }

    @Test func aDeclinedOfferLeavesMessagesUncompressed() async throws {
        try await withLoopbackServer { server in
            let socket = try await WebSocketClient().connect(url: url(server, "/ws/echo?key=d&deflate=off"))
            #expect(!socket.isCompressed)
            let text = String(repeating: "x", count: 1000)
            try await socket.send(.text(text))
            var iterator = socket.makeAsyncIterator()
            #expect(try await iterator.next() == .text(text))
            await socket.close()
            #expect(server.webSocketLog(key: "d").first == "message:1000")
        }
    }

    @Test(arguments: [
        ("x-unknown-extension", true),
        ("permessage-deflate; client_max_window_bits=20", true),
        ("permessage-deflate; server_no_context_takeover; server_no_context_takeover", true),
        ("permessage-deflate; mystery", true),
        ("permessage-deflate", false)
    ])
    func anAnswerTheClientCannotAcceptFailsTheHandshake(answer: String, offered: Bool) async throws {
        try await withLoopbackServer { server in
            let client = try WebSocketClient(options: Self.options(compressed: offered))
            let escaped = answer.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let error = await #expect(throws: SwitchyardError.self) {
                _ = try await client.connect(url: url(server, "/ws/echo?extensions=\(escaped)"))
            }
            #expect(error?.kind == .webSocketHandshake)
            #expect(error?.message.contains("permessage-deflate answer is not acceptable") == true, "\(error?.message ?? "")")
        }
    }

    @Test func aCompressedFrameWithoutAnAgreementIsAProtocolError() async throws {
        try await withLoopbackServer { server in
            // The peer sends RSV1 frames although it declined the offer.
            let socket = try await WebSocketClient().connect(url: url(server, "/ws/rfc-hello?key=v&deflate=off"))
            var iterator = socket.makeAsyncIterator()
            let error = await #expect(throws: SwitchyardError.self) { _ = try await iterator.next() }
            #expect(error?.kind == .webSocketClosed)
            #expect(await eventually { server.webSocketLog(key: "v").contains { $0.hasPrefix("close:1002:") } })
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

    /// Compressed, the peer's million bytes are about a kilobyte on the wire: the bound counts
    /// inflated bytes and stops inflating there.
    @Test(arguments: [true, false])
    func anOversizedMessageIsRefusedWith1009(compressed: Bool) async throws {
        try await withLoopbackServer { server in
            let client = try WebSocketClient(options: Self.options(compressed: compressed, maximumMessageBytes: 64 * 1024))
            let socket = try await client.connect(url: url(server, "/ws/oversized?key=o&size=1000000"))
            #expect(socket.isCompressed == compressed)
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

    /// The standard chain validates statuses (200–399): its link must neither refuse the `101` nor
    /// turn an error into `httpStatus`; the handshake judges the status and names it.
    @Test func withTheStandardChainThe101OpensAndAnErrorStatusFailsTheHandshakeNamingIt() async throws {
        try await withLoopbackServer { server in
            let client = try WebSocketClient(configuration: .standard)
            let socket = try await client.connect(url: url(server, "/ws/echo?key=standard"))
            #expect(socket.handshake.status.code == 101)
            try await socket.send(.text("hello"))
            var iterator = socket.makeAsyncIterator()
            #expect(try await iterator.next() == .text("hello"))
            await socket.close()
            let refused = await #expect(throws: SwitchyardError.self) {
                _ = try await client.connect(url: url(server, "/status/500"))
            }
            #expect(refused?.kind == .webSocketHandshake)
            #expect(refused?.message.contains("500") == true, "\(refused?.message ?? "")")
            #expect(server.requestCount(path: "/status/500") == 1)  // refused once, not retried
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
