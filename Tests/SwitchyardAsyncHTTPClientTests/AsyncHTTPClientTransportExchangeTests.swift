import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardConformance
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct AsyncHTTPClientTransportExchangeTests {
    /// Status, body and first-byte/total timings are the conformance checks `get` and `timings`; what is
    /// particular to AsyncHTTPClient is the reason phrase it keeps and the connection phases it cannot see.
    @Test func theReasonPhraseIsKeptAndConnectionPhasesAreNotMeasured() async throws {
        try await withAHCClient { client, server in
            let response = try await client.send(try Request(url: server.url("/small")))
            #expect(response.head.status.reasonPhrase == "OK")
            let timings = response.timings
            #expect(timings.dns == nil && timings.connect == nil && timings.tls == nil)
        }
    }

    @Test func aLargeBufferedUploadArrivesWhole() async throws {
        try await withAHCClient { client, server in
            let payload = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            let request = try Request(method: .post, url: server.url("/echo"), body: HTTPBody(payload))
            let echo = try EchoReport(try await client.send(request))
            #expect(echo.bodyLength == payload.count)
            #expect(echo.bodySHA256 == sha256Hex(payload))
        }
    }

    @Test func requestsWithoutBodyAddOnlyHostAndFraming() async throws {
        try await withAHCClient { client, server in
            for method in [HTTPRequest.Method.get, .delete, .post] {
                let echo = try EchoReport(try await client.send(try Request(method: method, url: server.url("/echo"))))
                print("AHC request headers for \(method.rawValue) without body: \(echo.headers)")
                #expect(echo.method == method.rawValue)
                #expect(echo.bodyLength == 0)
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

    @Test func aStreamedUploadThatLiesAboutItsLengthIsAnInvalidRequest() async throws {
        try await withAHCClient { client, server in
            let chunks = AsyncStream<ArraySlice<UInt8>> { continuation in
                continuation.yield(ArraySlice(repeating: 1, count: 10))
                continuation.finish()
            }
            let request = try Request(
                method: .post, url: server.url("/echo"),
                body: HTTPBody(chunks, length: .known(20)))
            let error = await failure(of: client, request)
            #expect(error?.kind == .invalidRequest, "\(String(describing: error))")
        }
    }

    @Test func anExplicitHostAndAcceptEncodingAreSentAsGiven() async throws {
        try await withAHCClient { client, server in
            let request = try Request(
                url: server.url("/echo"),
                headers: ["Host": "example.test", "Accept-Encoding": "identity"])
            let echo = try EchoReport(try await client.send(request))
            #expect(echo.values(of: "Host") == ["example.test"])
            #expect(echo.values(of: "Accept-Encoding") == ["identity"])
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
