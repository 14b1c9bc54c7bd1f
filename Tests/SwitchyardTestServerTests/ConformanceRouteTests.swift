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

    /// While the client reads nothing, the server's count of body bytes handed to the socket settles
    /// below the body's size (it writes only while the socket takes data); once the client reads, it
    /// goes on, and the count is at least what the client has received.
    @Test func bodyProgressStopsWhenTheClientDoesNotRead() async throws {
        try await withLoopbackServer { server in
            let size = 64 << 20
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /bytes/\(size)?tag=slow HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await eventually { server.bodyBytesSent(tag: "slow") > 0 })
            let stalled = await settledBodyBytesSent(server, tag: "slow")
            #expect(stalled < size, "the server cannot write past an unread socket")

            while try !connection.readLine().isEmpty {}  // the head
            let wanted = stalled + (1 << 20)
            #expect(try connection.read(exactly: wanted) == patternBytes(count: wanted))
            #expect(await eventually { server.bodyBytesSent(tag: "slow") >= wanted })
            #expect(server.bodyBytesSent(tag: "slow") <= size)
        }
    }
}

/// ``LoopbackServer/bodyBytesSent(tag:)`` once it has stayed the same for 50 polls 5 ms apart (or
/// after a minute, a hang guard). A busy machine may make it look settled early, with a smaller count:
/// that only makes the test less sensitive, never wrong.
private func settledBodyBytesSent(_ server: LoopbackServer, tag: String) async -> Int {
    var last = server.bodyBytesSent(tag: tag)
    var unchanged = 0
    _ = await eventually {
        let current = server.bodyBytesSent(tag: tag)
        unchanged = current == last ? unchanged + 1 : 0
        last = current
        return unchanged >= 50
    }
    return last
}
