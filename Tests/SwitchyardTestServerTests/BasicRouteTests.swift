import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@Suite("LoopbackServer basic routes")
struct BasicRouteTests {
    @Test func startReportsPortAndURLs() async throws {
        try await withLoopbackServer { server in
            #expect(server.port > 0)
            #expect(server.baseURL == "http://127.0.0.1:\(server.port)")
            #expect(server.url("/small?x=1") == "http://127.0.0.1:\(server.port)/small?x=1")
        }
    }

    @Test func smallIsByteExact() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /small HTTP/1.1\r\nHost: x\r\n\r\n")
            let expected = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nhello, world\n"
            #expect(try connection.read(exactly: expected.utf8.count) == Array(expected.utf8))
            #expect(server.requestCount(path: "/small") == 1)
        }
    }

    @Test func keepAliveThenConnectionClose() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            for _ in 0..<3 {
                let response = try connection.request("GET", "/small")
                #expect(response.status == 200)
                #expect(response.bodyText == "hello, world\n")
                #expect(response.value("Connection") == nil)
            }
            let last = try connection.request("GET", "/small?tag=last", headers: [("Connection", "close")])
            #expect(last.value("Connection") == "close")
            #expect(last.bodyText == "hello, world\n")
            #expect(try connection.isAtEOF())
            #expect(await server.waitForDisconnect(tag: "last", timeout: .seconds(30)))
            #expect(server.requestCount(path: "/small") == 4)
        }
    }

    @Test func http10ClosesUnlessKeepAlive() async throws {
        try await withLoopbackServer { server in
            let keepAlive = try RawConnection(port: server.port)
            try keepAlive.send("GET /small HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            let first = try keepAlive.readResponse()
            #expect(first.value("Connection") == "keep-alive")
            try keepAlive.send("GET /status/201 HTTP/1.0\r\n\r\n")
            let second = try keepAlive.readResponse()
            #expect(second.status == 201)
            #expect(second.value("Connection") == "close")
            #expect(try keepAlive.isAtEOF())
        }
    }

    @Test func pipelinedRequestsAnsweredInOrder() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            try connection.send(
                "GET /delay/30 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "POST /echo/body HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
                    + "GET /small HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /status/202 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            )
            #expect(try connection.readResponse().bodyText == "delayed 30\n")
            #expect(try connection.readResponse().bodyText == "hello")
            #expect(try connection.readResponse().bodyText == "hello, world\n")
            let last = try connection.readResponse()
            #expect(last.status == 202)
            #expect(last.bodyText == "status 202\n")
            #expect(try connection.isAtEOF())
        }
    }

    @Test func headHasHeadersButNoBody() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            let small = try connection.request("HEAD", "/small")
            #expect(small.value("Content-Length") == "13")
            let bytes = try connection.request("HEAD", "/bytes/100000")
            #expect(bytes.value("Content-Length") == "100000")
            let chunked = try connection.request("HEAD", "/bytes/100000?framing=chunked")
            #expect(chunked.value("Transfer-Encoding") == "chunked")
            #expect(chunked.value("Content-Length") == nil)
            // Had any body bytes been sent, this response would not parse as "hello, world".
            let next = try connection.request("GET", "/small")
            #expect(next.statusLine == "HTTP/1.1 200 OK")
            #expect(next.bodyText == "hello, world\n")
        }
    }

    @Test func statusCodes() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            let notFound = try connection.request("GET", "/status/404")
            #expect(notFound.statusLine == "HTTP/1.1 404 Not Found")
            #expect(notFound.bodyText == "status 404\n")
            let custom = try connection.request("GET", "/status/299")
            #expect(custom.statusLine == "HTTP/1.1 299 Status")
            let noContent = try connection.request("GET", "/status/204")
            #expect(noContent.status == 204)
            #expect(noContent.value("Content-Length") == nil)
            let notModified = try connection.request("GET", "/status/304")
            #expect(notModified.status == 304)
            let informational = try connection.request("GET", "/status/101")
            #expect(informational.status == 400)
            let invalid = try connection.request("GET", "/status/abc")
            #expect(invalid.status == 400)
            // The connection is still in sync: 204/304 sent no body bytes.
            #expect(try connection.request("GET", "/small").bodyText == "hello, world\n")
        }
    }

    @Test func notFound() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            let response = try connection.request("GET", "/nope?tag=x")
            #expect(response.status == 404)
            #expect(response.bodyText == "not found\n")
            #expect(server.requestCount(path: "/nope") == 1)
            #expect(server.requestCount(path: "/nope?tag=x") == 0)
        }
    }

    @Test func delay() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            let response = try connection.request("GET", "/delay/15")
            #expect(response.status == 200)
            #expect(response.bodyText == "delayed 15\n")
        }
    }

    @Test func flakyCountsPerKey() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            let first = try connection.request("GET", "/flaky/k1/2")
            #expect(first.status == 503)
            #expect(first.value("Retry-After") == "0")
            #expect(first.bodyText == "fail 1\n")
            let other = try connection.request("GET", "/flaky/k2/1")
            #expect(other.bodyText == "fail 1\n")
            #expect(try connection.request("GET", "/flaky/k1/2").bodyText == "fail 2\n")
            let ok = try connection.request("GET", "/flaky/k1/2")
            #expect(ok.status == 200)
            #expect(ok.bodyText == "ok after 2\n")
            #expect(try connection.request("GET", "/flaky/k1/2").status == 200)
            #expect(try connection.request("GET", "/flaky/k2/1").bodyText == "ok after 1\n")
            #expect(server.requestCount(path: "/flaky/k1/2") == 4)
        }
    }

    @Test func flakyStatusRetryAfterAndArrivals() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            let first = try connection.request("POST", "/flaky/k/2?status=429&retry-after=7")
            #expect(first.status == 429)
            #expect(first.value("Retry-After") == "7")
            let second = try connection.request("GET", "/flaky/k/2?status=500&retry-after=")
            #expect(second.status == 500)
            #expect(second.value("Retry-After") == nil)
            #expect(try connection.request("GET", "/flaky/k/2").status == 200)
            #expect(try connection.request("GET", "/flaky/bad/1?status=200").status == 400)
            #expect(try connection.request("GET", "/flaky/bad/1?retry-after=%0D%0AX:%201").status == 400)
            let arrivals = server.flakyArrivals(key: "k")
            #expect(arrivals.count == 3)
            #expect(arrivals == arrivals.sorted())
            #expect(server.flakyArrivals(key: "bad").isEmpty)
            #expect(server.flakyArrivals(key: "never").isEmpty)
        }
    }

    @Test func retryAfter() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            let response = try connection.request("GET", "/retry-after/7")
            #expect(response.status == 503)
            #expect(response.value("Retry-After") == "7")
        }
    }

    @Test func redirects() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            let hop = try connection.request("GET", "/redirect/2")
            #expect(hop.status == 302)
            #expect(hop.value("Location") == "/redirect/1")
            #expect(hop.value("Content-Length") == "0")
            let done = try connection.request("GET", "/redirect/0")
            #expect(done.status == 200)
            #expect(done.bodyText == "redirected\n")
            let to = try connection.request("GET", "/redirect-to?location=http%3A%2F%2Fexample.com%2Fa%3Fb%3D1&status=307")
            #expect(to.status == 307)
            #expect(to.value("Location") == "http://example.com/a?b=1")
            let defaultStatus = try connection.request("GET", "/redirect-to?location=/small")
            #expect(defaultStatus.status == 302)
            #expect(try connection.request("GET", "/redirect-to").status == 400)
            #expect(try connection.request("GET", "/redirect-to?location=%0D%0AX:%201").status == 400)
        }
    }

    @Test func manyHeaders() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            let response = try connection.request("GET", "/headers/many?count=5")
            let names = response.headers.map(\.name)
            #expect(
                Array(names.prefix(8)) == [
                    "X-Header-1", "X-Header-2", "X-Header-3", "X-Header-4", "X-Header-5",
                    "Set-Cookie", "Set-Cookie", "X-MiXeD-CaSe"
                ])
            #expect(response.value("X-Header-3") == "value-3")
            #expect(response.values("Set-Cookie") == ["a=1", "b=2"])
            #expect(response.value("x-mixed-case") == "yes")
            let defaults = try connection.request("GET", "/headers/many")
            #expect(defaults.headers.filter { $0.name.hasPrefix("X-Header-") }.count == 100)
        }
    }

    @Test func giantHeader() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            let response = try connection.request("GET", "/headers/giant?bytes=1000")
            #expect(response.value("X-Giant") == String(repeating: "a", count: 1000))
            let defaults = try connection.request("GET", "/headers/giant")
            #expect(defaults.value("X-Giant")?.count == 100_000)
        }
    }

    @Test func compressedBodies() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            let gzip = try connection.request("GET", "/gzip")
            #expect(gzip.value("Content-Encoding") == "gzip")
            #expect(Array(gzip.body.prefix(3)) == [0x1f, 0x8b, 0x08])
            let deflate = try connection.request("GET", "/deflate")
            #expect(deflate.value("Content-Encoding") == "deflate")
            #expect(Array(deflate.body.prefix(2)) == [0x78, 0x9c])
            let broken = try connection.request("GET", "/gzip/broken")
            #expect(broken.value("Content-Encoding") == "gzip")
            #expect(broken.body.count == gzip.body.count)
            #expect(broken.body != gzip.body)
            #expect(Array(broken.body.prefix(10)) == Array(gzip.body.prefix(10)))
        }
    }

    @Test func badRequestGets400AndClose() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("THIS IS NOT HTTP\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 400)
            #expect(response.value("Connection") == "close")
            #expect(try connection.isAtEOF())
        }
    }
}
