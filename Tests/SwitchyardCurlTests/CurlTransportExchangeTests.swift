import Crypto
import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCurl
import SwitchyardTestServer
import Testing

@Suite(.timeLimit(.minutes(2))) struct CurlTransportExchangeTests {
    @Test func getReturnsStatusHeadersBodyAndTimings() async throws {
        try await withCurlClient { client, server in
            let response = try await client.send(try Request(url: server.url("/small")))
            #expect(response.head.status == .ok)
            #expect(response.text == "hello, world\n")
            #expect(response.head.headerFields[.contentLength] == "13")
            let timings = response.timings
            #expect(timings.total != nil)
            #expect(timings.firstByte != nil)
            #expect((timings.firstByte ?? .zero) <= (timings.total ?? .zero))
        }
    }

    @Test(arguments: [HTTPRequest.Method.post, .put, .patch, .delete])
    func methodsWithBodiesReachTheServerIntact(method: HTTPRequest.Method) async throws {
        try await withCurlClient { client, server in
            let payload = Array("payload for \(method.rawValue)".utf8)
            let request = try Request(method: method, url: server.url("/echo"),
                                      headers: ["Content-Type": "text/plain"], body: HTTPBody(payload))
            let echo = try EchoReport(try await client.send(request))
            #expect(echo.method == method.rawValue)
            #expect(echo.body_length == payload.count)
            #expect(echo.body_sha256 == SHA256.hash(data: payload).map { String(format: "%02x", $0) }.joined())
            #expect(echo.values(of: "Content-Length") == [String(payload.count)])
            #expect(echo.values(of: "Content-Type") == ["text/plain"])
        }
    }

    @Test func getAndDeleteWithoutBodySendNoBodyHeaders() async throws {
        try await withCurlClient { client, server in
            for method in [HTTPRequest.Method.get, .delete] {
                let echo = try EchoReport(try await client.send(try Request(method: method, url: server.url("/echo"))))
                #expect(echo.method == method.rawValue)
                #expect(echo.body_length == 0)
                #expect(echo.values(of: "Content-Type").isEmpty)
                #expect(echo.values(of: "Accept").isEmpty)
                #expect(echo.values(of: "Expect").isEmpty)
            }
        }
    }

    @Test func headHasHeadersButNoBody() async throws {
        try await withCurlClient { client, server in
            let response = try await client.send(try Request(method: .head, url: server.url("/bytes/5000")))
            #expect(response.head.status == .ok)
            #expect(response.head.headerFields[.contentLength] == "5000")
            #expect(response.body.isEmpty)
        }
    }

    @Test func requestHeadersKeepOrderRepeatsAndCase() async throws {
        try await withCurlClient { client, server in
            let request = try Request(url: server.url("/echo"), headers: [
                "X-First": "1", "x-mixed-CASE": "m", "X-Repeat": "a", "X-Repeat": "b",
            ])
            let echo = try EchoReport(try await client.send(request))
            let names = echo.headers.compactMap(\.first).filter { $0.lowercased().hasPrefix("x-") }
            #expect(names == ["X-First", "x-mixed-CASE", "X-Repeat", "X-Repeat"])
            #expect(echo.values(of: "x-repeat") == ["a", "b"])
        }
    }

    @Test func responseHeadersKeepRepeatsAndCase() async throws {
        try await withCurlClient { client, server in
            let response = try await client.send(try Request(url: server.url("/headers/many?count=150")))
            let fields = response.head.headerFields
            #expect(fields[values: .setCookie] == ["a=1", "b=2"])
            #expect(fields.contains { $0.name.rawName == "X-MiXeD-CaSe" && $0.value == "yes" })
            #expect(fields[HTTPField.Name("x-header-149")!] == "value-149")
        }
    }

    @Test func streamedUploadOfUnknownLengthArrivesWhole() async throws {
        try await withCurlClient { client, server in
            let chunkCount = 40
            let chunks = AsyncStream<ArraySlice<UInt8>> { continuation in
                for index in 0..<chunkCount {
                    continuation.yield(ArraySlice(repeating: UInt8(index), count: 50_000))
                }
                continuation.finish()
            }
            var expected = SHA256()
            for index in 0..<chunkCount { expected.update(data: [UInt8](repeating: UInt8(index), count: 50_000)) }
            let request = try Request(method: .post, url: server.url("/echo"), body: HTTPBody(chunks))
            let echo = try EchoReport(try await client.send(request))
            #expect(echo.body_length == chunkCount * 50_000)
            #expect(echo.body_sha256 == expected.finalize().map { String(format: "%02x", $0) }.joined())
        }
    }

    @Test(arguments: ["content-length", "chunked", "close"])
    func bodiesArriveWholeWithEveryFraming(framing: String) async throws {
        try await withCurlClient { client, server in
            let response = try await client.send(try Request(url: server.url("/bytes/300000?framing=\(framing)")))
            #expect(response.body.count == 300_000)
            #expect(response.body.enumerated().allSatisfy { $0.element == expectedPatternByte(at: $0.offset) })
        }
    }

    @Test func gzipAndDeflateBodiesAreDecoded() async throws {
        try await withCurlClient { client, server in
            let expected = String(repeating: "hello, gzip\n", count: 100)
            let gzip = try await client.send(try Request(url: server.url("/gzip")))
            let deflate = try await client.send(try Request(url: server.url("/deflate")))
            #expect(gzip.text == expected)
            #expect(deflate.text == expected)
        }
    }

    @Test func keepAliveReusesConnections() async throws {
        try await withCurlClient { client, server in
            for _ in 0..<20 { _ = try await client.send(try Request(url: server.url("/small"))) }
            #expect(server.openConnections <= 1)
        }
    }
}

@Suite(.timeLimit(.minutes(2))) struct CurlTransportPolicyTests {
    @Test func redirectsAreReturnedNotFollowed() async throws {
        try await withCurlClient { client, server in
            let response = try await client.send(try Request(url: server.url("/redirect/2")))
            #expect(response.head.status.code == 302)
            #expect(response.head.headerFields[.location] == "/redirect/1")
            #expect(server.requestCount(path: "/redirect/1") == 0)
        }
    }

    @Test func statusCodesAreReportedNotThrown() async throws {
        try await withCurlClient { client, server in
            for code in [201, 204, 304, 404, 500, 503] {
                let response = try await client.send(try Request(url: server.url("/status/\(code)")))
                #expect(response.head.status.code == code)
                if code == 204 || code == 304 { #expect(response.body.isEmpty) }
            }
        }
    }

    @Test func expectContinueIsHandled() async throws {
        try await withCurlClient { client, server in
            let request = try Request(method: .post, url: server.url("/echo/body"),
                                      headers: ["Expect": "100-continue"], body: HTTPBody("after continue"))
            let response = try await client.send(request)
            #expect(response.head.status == .ok)
            #expect(response.text == "after continue")
        }
    }
}
