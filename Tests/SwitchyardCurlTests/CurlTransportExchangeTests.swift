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

    @Test func keepAliveReusesConnections() async throws {
        try await withCurlClient { client, server in
            for _ in 0..<20 { _ = try await client.send(try Request(url: server.url("/small"))) }
            #expect(server.openConnections <= 1)
        }
    }
}

@Suite(.timeLimit(.minutes(2))) struct CurlTransportPolicyTests {
}
