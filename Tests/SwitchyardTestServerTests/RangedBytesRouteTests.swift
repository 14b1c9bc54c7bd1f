import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@Suite("LoopbackServer /bytes ranges")
struct RangedBytesRouteTests {
    @Test func fullResponseCarriesETagAndAcceptRanges() async throws {
        try await withLoopbackServer { server in
            let response = try RawConnection(port: server.port).request("GET", "/bytes/1000")
            #expect(response.status == 200)
            #expect(response.value("ETag") == "\"bytes-1000\"")
            #expect(response.value("Accept-Ranges") == "bytes")
            #expect(response.body == patternBytes(count: 1000))
        }
    }

    @Test func openRangeGives206FromTheOffset() async throws {
        try await withLoopbackServer { server in
            let response = try RawConnection(port: server.port).request(
                "GET", "/bytes/1000?tag=r", headers: [("Range", "bytes=300-"), ("If-Range", "\"bytes-1000\"")])
            #expect(response.status == 206)
            #expect(response.value("Content-Range") == "bytes 300-999/1000")
            #expect(response.value("Content-Length") == "700")
            #expect(response.body == patternBytes(count: 700, from: 300))
            #expect(server.rangeHeaders(tag: "r") == ["bytes=300-"])
        }
    }

    @Test func closedRangeGivesThatSlice() async throws {
        try await withLoopbackServer { server in
            let response = try RawConnection(port: server.port).request("GET", "/bytes/1000", headers: [("Range", "bytes=10-19")])
            #expect(response.status == 206)
            #expect(response.value("Content-Range") == "bytes 10-19/1000")
            #expect(response.body == patternBytes(count: 10, from: 10))
        }
    }

    @Test func changedValidatorGivesTheWholeResource() async throws {
        try await withLoopbackServer { server in
            let response = try RawConnection(port: server.port).request(
                "GET", "/bytes/1000?version=2", headers: [("Range", "bytes=300-"), ("If-Range", "\"bytes-1000\"")])
            #expect(response.status == 200)
            #expect(response.value("ETag") == "\"bytes-1000-v2\"")
            #expect(response.body == patternBytes(count: 1000))
        }
    }

    @Test func ignoredRangesGiveTheWholeResource() async throws {
        try await withLoopbackServer { server in
            let response = try RawConnection(port: server.port).request(
                "GET", "/bytes/1000?ranges=ignore", headers: [("Range", "bytes=300-")])
            #expect(response.status == 200)
            #expect(response.value("Accept-Ranges") == nil)
            #expect(response.body.count == 1000)
        }
    }

    @Test func rangePastTheEndIs416() async throws {
        try await withLoopbackServer { server in
            let response = try RawConnection(port: server.port).request("GET", "/bytes/1000", headers: [("Range", "bytes=1000-")])
            #expect(response.status == 416)
            #expect(response.value("Content-Range") == "bytes */1000")
        }
    }

    @Test func cutAfterClosesTheConnectionAfterKBytes() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /bytes/1000000?cut_after=5000&tag=cut HTTP/1.1\r\nHost: x\r\n\r\n")
            let received = try connection.readUntilClose()
            let text = String(decoding: received, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200 OK"))
            #expect(text.contains("Content-Length: 1000000"))
            let separator: [UInt8] = [13, 10, 13, 10]
            let headEnd = try #require((0..<received.count - 3).first { Array(received[$0..<$0 + 4]) == separator })
            #expect(Array(received[(headEnd + 4)...]) == patternBytes(count: 5000))
            #expect(server.rangeHeaders(tag: "cut") == [nil])
        }
    }
}

@Suite("LoopbackServer stall_at and dropped connections")
struct StallAndDropTests {
    @Test func stallAtStopsThenDropClosesTheConnection() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /bytes/1000000?stall_at=1000&tag=drop HTTP/1.1\r\nHost: x\r\n\r\n")
            var head: [UInt8] = []
            while !head.suffix(4).elementsEqual([13, 10, 13, 10]) { head += try connection.read(exactly: 1) }
            #expect(try connection.read(exactly: 1000) == patternBytes(count: 1000))
            server.dropConnections(tag: "drop")
            #expect(try connection.isAtEOF())
        }
    }

    @Test func aResponseStartingAtTheStallPointRunsToTheEnd() async throws {
        try await withLoopbackServer { server in
            let response = try RawConnection(port: server.port).request(
                "GET", "/bytes/3000?stall_at=1000", headers: [("Range", "bytes=1000-")])
            #expect(response.status == 206)
            #expect(response.body == patternBytes(count: 2000, from: 1000))
        }
    }
}
