import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@Suite("LoopbackServer connections and disconnects")
struct ConnectionLifecycleTests {
    @Test func stallRecordsDisconnectAfterClientCloses() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /stall?tag=stalled HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await eventually { server.requestCount(path: "/stall") == 1 })
            #expect(!server.hasDisconnected(tag: "stalled"))
            connection.close()
            #expect(await server.waitForDisconnect(tag: "stalled", timeout: .seconds(30)))
            #expect(server.hasDisconnected(tag: "stalled"))
        }
    }

    @Test func clientAbandoningDelayIsRecorded() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /delay/600000?tag=abandoned HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await eventually { server.requestCount(path: "/delay/600000") == 1 })
            connection.close()
            #expect(await server.waitForDisconnect(tag: "abandoned", timeout: .seconds(30)))
        }
    }

    @Test func clientAbandoningHugeBodyIsRecorded() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /bytes/1073741824?tag=huge HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try connection.read(exactly: 100_000)
            connection.close()
            #expect(await server.waitForDisconnect(tag: "huge", timeout: .seconds(30)))
            #expect(await eventually { server.openConnections == 0 })
        }
    }

    @Test func unknownTagNeverDisconnects() async throws {
        try await withLoopbackServer { server in
            #expect(!server.hasDisconnected(tag: "never-seen"))
            #expect(await server.waitForDisconnect(tag: "never-seen", timeout: .milliseconds(20)) == false)
        }
    }

    @Test func tagOnKeepAliveConnectionIsOpenUntilClosed() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            #expect(try connection.request("GET", "/small?tag=ka").status == 200)
            #expect(!server.hasDisconnected(tag: "ka"))
            connection.close()
            #expect(await server.waitForDisconnect(tag: "ka", timeout: .seconds(30)))
        }
    }

    @Test func openConnectionsTracksClients() async throws {
        try await withLoopbackServer { server in
            var connections: [RawConnection] = []
            for _ in 0..<3 {
                let connection = try RawConnection(port: server.port)
                #expect(try connection.request("GET", "/small").status == 200)
                connections.append(connection)
            }
            #expect(await eventually { server.openConnections == 3 })
            for connection in connections { connection.close() }
            #expect(await eventually { server.openConnections == 0 })
        }
    }

    @Test func manyConcurrentConnections() async throws {
        try await withLoopbackServer { server in
            var connections: [RawConnection] = []
            for _ in 0..<300 {
                let connection = try RawConnection(port: server.port)
                try connection.send("GET /small HTTP/1.1\r\nHost: x\r\n\r\n")
                connections.append(connection)
            }
            var ok = 0
            for connection in connections where try connection.readResponse().bodyText == "hello, world\n" {
                ok += 1
            }
            #expect(ok == 300)
            #expect(await eventually { server.openConnections == 300 })
            #expect(server.requestCount(path: "/small") == 300)
        }
    }

    @Test func multiThreadedServer() async throws {
        try await withLoopbackServer(.init(threads: 0)) { server in
            for _ in 0..<8 {
                let connection = try RawConnection(port: server.port)
                #expect(try connection.request("GET", "/small").bodyText == "hello, world\n")
            }
        }
    }

    @Test func shutdownClosesConnectionsAndIsIdempotent() async throws {
        let server = try await LoopbackServer.start()
        let connection = try RawConnection(port: server.port)
        try connection.send("GET /stall?tag=shut HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await eventually { server.requestCount(path: "/stall") == 1 })
        try await server.shutdown()
        try await server.shutdown()
        #expect(try connection.isAtEOF())
        #expect(server.hasDisconnected(tag: "shut"))
        #expect(server.openConnections == 0)
        #expect(throws: RawSocketError.self) { try RawConnection(port: server.port) }
    }
}
