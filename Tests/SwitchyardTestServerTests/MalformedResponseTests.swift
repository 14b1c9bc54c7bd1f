import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@Suite("LoopbackServer malformed responses")
struct MalformedResponseTests {
    static let cases: [(path: String, bytes: [UInt8])] = [
        ("/malformed/status-line", Array("HTTP/1.1 2x0 OK\r\nContent-Length: 2\r\n\r\nok".utf8)),
        ("/malformed/garbage", Array("this is not http\r\n\r\n".utf8)),
        ("/malformed/header-line", Array("HTTP/1.1 200 OK\r\nthis line has no colon\r\nContent-Length: 2\r\n\r\nok".utf8)),
        (
            "/malformed/truncated-length",
            Array("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 100\r\n\r\n".utf8)
                + patternBytes(count: 50)
        ),
        (
            "/malformed/truncated-chunked",
            Array("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\na\r\n".utf8)
                + patternBytes(count: 10) + [13, 10]
        ),
        ("/malformed/bad-chunk", Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n".utf8)),
        (
            "/malformed/content-length-mismatch",
            Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhello".utf8)
        ),
        ("/malformed/empty", [])
    ]

    @Test(arguments: cases.map(\.path))
    func bytesAreExactAndConnectionCloses(path: String) async throws {
        let expected = Self.cases.first { $0.path == path }!.bytes
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("GET \(path)?tag=m HTTP/1.1\r\nHost: x\r\n\r\n")
            let received = try connection.readUntilClose()
            #expect(received == expected, "\(String(decoding: received, as: UTF8.self))")
            #expect(await server.waitForDisconnect(tag: "m", timeout: .seconds(30)))
        }
    }

    @Test func unknownMalformedKindIs404() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            #expect(try connection.request("GET", "/malformed/nope").status == 404)
        }
    }
}
