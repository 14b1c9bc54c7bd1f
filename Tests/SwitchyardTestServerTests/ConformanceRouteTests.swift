import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// Routes that exist for the transport conformance suite: interim responses, HTTP/1.0 bodies,
/// resets and body progress.
@Suite("LoopbackServer conformance routes")
struct ConformanceRouteTests {
    @Test func earlyHintsPrecedeTheFinalResponse() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /early-hints HTTP/1.1\r\nHost: x\r\n\r\n")
            let interim = try connection.readResponse(bodiless: true)
            #expect(interim.status == 103)
            #expect(interim.value("Link") == "</style.css>; rel=preload")
            let final = try connection.readResponse()
            #expect(final.status == 200)
            #expect(final.body == Array("hints\n".utf8))
        }
    }

    @Test func http10BodyEndsAtClose() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /http10?bytes=70000 HTTP/1.1\r\nHost: x\r\n\r\n")
            let received = try connection.readUntilClose()
            let head = Array("HTTP/1.0 200 OK\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
            #expect(Array(received.prefix(head.count)) == head)
            #expect(Array(received.dropFirst(head.count)) == patternBytes(count: 70000))
        }
    }

    @Test func resetWithoutAnswer() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /reset?tag=r HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(throws: (any Error).self) { _ = try connection.readUntilClose() }
            #expect(await server.waitForDisconnect(tag: "r", timeout: .seconds(30)))
        }
    }

    @Test func resetAfterPartOfTheBody() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /reset?bytes=1000 HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try connection.readLine()
            #expect(head == Array("HTTP/1.1 200 OK".utf8))
            #expect(throws: (any Error).self) { _ = try connection.readUntilClose() }
        }
    }

    @Test func bodyProgressStopsWhenTheClientDoesNotRead() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /bytes/67108864?tag=slow HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await eventually { server.bodyBytesSent(tag: "slow") > 0 })
            try await Task.sleep(for: .milliseconds(200))
            let stalled = server.bodyBytesSent(tag: "slow")
            #expect(stalled < 64 << 20, "the server cannot write past an unread socket")
            _ = try connection.read(exactly: 1024)
            #expect(server.bodyBytesSent(tag: "never-used") == 0)
        }
    }
}
