import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardTestServer
import Testing

@Suite(.timeLimit(.minutes(2))) struct AsyncHTTPClientTransportExchangeTests {
    @Test func getReturnsStatusHeadersBodyAndTimings() async throws {
        try await withAHCClient { client, server in
            let response = try await client.send(try Request(url: server.url("/small")))
            #expect(response.head.status == .ok)
            #expect(response.head.status.reasonPhrase == "OK")
            #expect(response.text == "hello, world\n")
            #expect(response.head.headerFields[.contentLength] == "13")
            let timings = response.timings
            #expect(timings.firstByte != nil)
            #expect(timings.total != nil)
            #expect((timings.firstByte ?? .zero) <= (timings.total ?? .zero))
            #expect(timings.dns == nil && timings.connect == nil && timings.tls == nil)
        }
    }

    @Test func aLargeBufferedUploadArrivesWhole() async throws {
        try await withAHCClient { client, server in
            let payload = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            let request = try Request(method: .post, url: server.url("/echo"), body: HTTPBody(payload))
            let echo = try EchoReport(try await client.send(request))
            #expect(echo.body_length == payload.count)
            #expect(echo.body_sha256 == sha256Hex(payload))
        }
    }

    @Test func requestsWithoutBodyAddOnlyHostAndFraming() async throws {
        try await withAHCClient { client, server in
            for method in [HTTPRequest.Method.get, .delete, .post] {
                let echo = try EchoReport(try await client.send(try Request(method: method, url: server.url("/echo"))))
                print("AHC request headers for \(method.rawValue) without body: \(echo.headers)")
                #expect(echo.method == method.rawValue)
                #expect(echo.body_length == 0)
                #expect(echo.values(of: "Host") == ["127.0.0.1:\(server.port)"])
                #expect(echo.values(of: "Accept-Encoding") == [AsyncHTTPClientTransport.defaultAcceptEncoding])
                #expect(echo.values(of: "Content-Length") == (method == .post ? ["0"] : []))
                #expect(echo.values(of: "Transfer-Encoding").isEmpty)
                #expect(echo.values(of: "Content-Type").isEmpty)
                #expect(echo.values(of: "Accept").isEmpty)
                #expect(echo.values(of: "Expect").isEmpty)
                #expect(echo.values(of: "Connection").isEmpty)
                #expect(echo.values(of: "User-Agent").isEmpty)
            }
        }
    }

    @Test func streamedUploadOfUnknownLengthIsSentChunked() async throws {
        try await withAHCClient { client, server in
            let chunkCount = 40
            let chunks = AsyncStream<ArraySlice<UInt8>> { continuation in
                for index in 0..<chunkCount {
                    continuation.yield(ArraySlice(repeating: UInt8(index), count: 50_000))
                }
                continuation.finish()
            }
            let expected = sha256Hex((0..<chunkCount).flatMap { [UInt8](repeating: UInt8($0), count: 50_000) })
            let request = try Request(method: .post, url: server.url("/echo"), body: HTTPBody(chunks))
            let echo = try EchoReport(try await client.send(request))
            #expect(echo.body_length == chunkCount * 50_000)
            #expect(echo.body_sha256 == expected)
            #expect(echo.values(of: "Transfer-Encoding") == ["chunked"])
            #expect(echo.values(of: "Content-Length").isEmpty)
        }
    }

    @Test func streamedUploadOfKnownLengthSendsContentLength() async throws {
        try await withAHCClient { client, server in
            let chunks = AsyncStream<ArraySlice<UInt8>> { continuation in
                for index in 0..<10 { continuation.yield(ArraySlice(repeating: UInt8(index), count: 1_000)) }
                continuation.finish()
            }
            let request = try Request(method: .put, url: server.url("/echo"),
                                      body: HTTPBody(chunks, length: .known(10_000)))
            let echo = try EchoReport(try await client.send(request))
            #expect(echo.body_length == 10_000)
            #expect(echo.values(of: "Content-Length") == ["10000"])
            #expect(echo.values(of: "Transfer-Encoding").isEmpty)
        }
    }

    @Test func aStreamedUploadThatLiesAboutItsLengthIsAnInvalidRequest() async throws {
        try await withAHCClient { client, server in
            let chunks = AsyncStream<ArraySlice<UInt8>> { continuation in
                continuation.yield(ArraySlice(repeating: 1, count: 10))
                continuation.finish()
            }
            let request = try Request(method: .post, url: server.url("/echo"),
                                      body: HTTPBody(chunks, length: .known(20)))
            let error = await failure(of: client, request)
            #expect(error?.kind == .invalidRequest, "\(String(describing: error))")
        }
    }

    @Test func aSingleUseBodyIsNotSentTwice() async throws {
        try await withAHCClient { client, server in
            let body = HTTPBody(AsyncStream<ArraySlice<UInt8>> { continuation in
                continuation.yield(ArraySlice("once".utf8))
                continuation.finish()
            })
            let first = try await client.send(try Request(method: .post, url: server.url("/echo"), body: body))
            #expect(try EchoReport(first).body_length == 4)
            let error = await failure(of: client, try Request(method: .post, url: server.url("/echo"), body: body))
            #expect(error?.kind == .invalidRequest, "\(String(describing: error))")
        }
    }

    @Test func anExplicitHostAndAcceptEncodingAreSentAsGiven() async throws {
        try await withAHCClient { client, server in
            let request = try Request(url: server.url("/echo"),
                                      headers: ["Host": "example.test", "Accept-Encoding": "identity"])
            let echo = try EchoReport(try await client.send(request))
            #expect(echo.values(of: "Host") == ["example.test"])
            #expect(echo.values(of: "Accept-Encoding") == ["identity"])
        }
    }

    @Test func keepAliveReusesConnections() async throws {
        try await withAHCClient { client, server in
            for _ in 0..<20 { _ = try await client.send(try Request(url: server.url("/small"))) }
            #expect(server.openConnections <= 1)
        }
    }
}

@Suite(.timeLimit(.minutes(2))) struct AsyncHTTPClientTransportPolicyTests {
    @Test func decodingCanBeTurnedOff() async throws {
        try await withAHCClient(configuration: .init(decodesContentEncoding: false)) { client, server in
            let echo = try EchoReport(try await client.send(try Request(url: server.url("/echo"))))
            #expect(echo.values(of: "Accept-Encoding").isEmpty)
            let gzip = try await client.send(try Request(url: server.url("/gzip")))
            #expect(gzip.head.headerFields[.contentEncoding] == "gzip")
            #expect(Array(gzip.body.prefix(2)) == [0x1F, 0x8B])
        }
    }
}
