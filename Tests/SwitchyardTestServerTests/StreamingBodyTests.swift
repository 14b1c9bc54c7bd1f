import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@Suite("LoopbackServer generated bodies")
struct StreamingBodyTests {
    static let size = 300_001  // several 64 KiB pieces plus a remainder

    @Test func contentLengthFraming() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            let response = try connection.request("GET", "/bytes/\(Self.size)")
            #expect(response.status == 200)
            #expect(response.value("Content-Type") == "application/octet-stream")
            #expect(response.value("Content-Length") == "\(Self.size)")
            #expect(response.body == patternBytes(count: Self.size))
            // Keep-alive still works after a streamed body.
            #expect(try connection.request("GET", "/small").bodyText == "hello, world\n")
        }
    }

    @Test func chunkedFraming() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            let response = try connection.request("GET", "/bytes/\(Self.size)?framing=chunked")
            #expect(response.value("Transfer-Encoding") == "chunked")
            #expect(response.value("Content-Length") == nil)
            #expect(response.body == patternBytes(count: Self.size))
            let empty = try connection.request("GET", "/bytes/0?framing=chunked")
            #expect(empty.body.isEmpty)
            #expect(try connection.request("GET", "/small").bodyText == "hello, world\n")
        }
    }

    @Test func closeDelimitedFraming() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            let response = try connection.request("GET", "/bytes/\(Self.size)?framing=close&tag=close-framed")
            #expect(response.value("Connection") == "close")
            #expect(response.value("Content-Length") == nil)
            #expect(response.value("Transfer-Encoding") == nil)
            #expect(response.body == patternBytes(count: Self.size))
            #expect(await server.waitForDisconnect(tag: "close-framed", timeout: .seconds(30)))
        }
    }

    @Test func delayedBytes() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            let response = try connection.request("GET", "/bytes/10?delay_ms=10")
            #expect(response.body == patternBytes(count: 10))
            #expect(try connection.request("GET", "/bytes/10?framing=bogus").status == 400)
        }
    }

    @Test func largeBodyStreamsWithBackPressure() async throws {
        // 8 MiB read in small steps (slowly, in debug builds) exercises the writability-driven pump.
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /bytes/8388608 HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try connection.readResponse(bodiless: true)
            #expect(head.value("Content-Length") == "8388608")
            var offset = 0
            var matches = true
            while offset < 8_388_608 {
                let piece = try connection.read(exactly: min(100_000, 8_388_608 - offset))
                if piece != patternBytes(count: piece.count, from: offset) { matches = false }
                offset += piece.count
            }
            #expect(matches)
            #expect(try connection.request("GET", "/small").bodyText == "hello, world\n")
        }
    }

    @Test func stallBodySendsPrefixThenNothing() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /stall-body?tag=sb&bytes=2048 HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try connection.readResponse(bodiless: true)
            #expect(head.value("Content-Length") == "1000000000")
            #expect(try connection.read(exactly: 2048) == patternBytes(count: 2048))
            #expect(!server.hasDisconnected(tag: "sb"))
            connection.close()
            #expect(await server.waitForDisconnect(tag: "sb", timeout: .seconds(30)))
        }
    }
}
