import Crypto
import Foundation
import HTTPTypes
import Switchyard
import SwitchyardConformance
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardURLSession
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite(.timeLimit(.minutes(2))) struct URLSessionTransportExchangeTests {
    @Test func aGetWithABodyIsRefusedBeforeSending() async throws {
        try await withURLSessionClient { client, server in
            let error = await failure(of: client, try Request(url: server.url("/echo"), body: HTTPBody("x")))
            #expect(error?.kind == .invalidRequest)
            #expect(server.requestCount(path: "/echo") == 0)
        }
    }

    /// URLRequest keeps one value per name: repeats arrive joined, names canonicalised (documented).
    @Test func requestHeadersArriveWithTheirValues() async throws {
        try await withURLSessionClient { client, server in
            let request = try Request(
                url: server.url("/echo"),
                headers: [
                    "X-First": "1", "x-mixed-CASE": "m", "X-Repeat": "a", "X-Repeat": "b"
                ])
            let echo = try EchoReport(try await client.send(request))
            #expect(echo.values(of: "X-First") == ["1"])
            #expect(echo.values(of: "x-mixed-case") == ["m"])
            #expect(echo.values(of: "x-repeat") == ["a,b"])
        }
    }

    @Test func responseHeadersKeepValuesCaseAndCookies() async throws {
        try await withURLSessionClient { client, server in
            let response = try await client.send(try Request(url: server.url("/headers/many?count=150")))
            let fields = response.head.headerFields
            #expect(fields[values: .setCookie] == ["a=1", "b=2"])
            #expect(fields.contains { $0.name.rawName == "X-MiXeD-CaSe" && $0.value == "yes" })
            #expect(fields[HTTPField.Name("x-header-149")!] == "value-149")
            // Deterministic order: sorted by name.
            let names = fields.map { $0.name.canonicalName }
            #expect(names == names.sorted())
        }
    }

    @Test func streamedUploadOfUnknownLengthArrivesWhole() async throws {
        try await withURLSessionClient { client, server in
            let chunkCount = 40
            let chunks = AsyncStream<ArraySlice<UInt8>> { continuation in
                for index in 0..<chunkCount { continuation.yield(ArraySlice(repeating: UInt8(index), count: 50_000)) }
                continuation.finish()
            }
            var expected = SHA256()
            for index in 0..<chunkCount { expected.update(data: [UInt8](repeating: UInt8(index), count: 50_000)) }
            let request = try Request(method: .post, url: server.url("/echo"), body: HTTPBody(chunks))
            let echo = try EchoReport(try await client.send(request))
            #expect(echo.bodyLength == chunkCount * 50_000)
            #expect(echo.bodySHA256 == hex(expected.finalize()))
            // Over bufferedBodyBytes, Linux spools it to a file first and sends that chunked too.
            #expect(echo.values(of: "Transfer-Encoding") == ["chunked"])
        }
    }

    /// The body is produced slowly, in a separate task, and spooled past the memory limit on Linux.
    @Test func streamedUploadOfKnownLengthArrivesWhole() async throws {
        try await withURLSessionClient { client, server in
            let chunks = AsyncStream<ArraySlice<UInt8>> { continuation in
                Task {
                    for index in 0..<10 {
                        try? await Task.sleep(for: .milliseconds(5))
                        continuation.yield(ArraySlice(repeating: UInt8(index), count: 300_000))
                    }
                    continuation.finish()
                }
            }
            var expected = SHA256()
            for index in 0..<10 { expected.update(data: [UInt8](repeating: UInt8(index), count: 300_000)) }
            let request = try Request(
                method: .put, url: server.url("/echo"),
                body: HTTPBody(chunks, length: .known(3_000_000)))
            let echo = try EchoReport(try await client.send(request))
            #expect(echo.bodyLength == 3_000_000)
            #expect(echo.bodySHA256 == hex(expected.finalize()))
            #if canImport(FoundationNetworking)
            // Over bufferedBodyBytes on Linux: spooled to a file and sent chunked (documented).
            #expect(echo.values(of: "Transfer-Encoding") == ["chunked"])
            #expect(echo.values(of: "Content-Length").isEmpty)
            #else
            #expect(echo.values(of: "Content-Length") == ["3000000"])
            #expect(echo.values(of: "Transfer-Encoding").isEmpty)
            #endif
        }
    }

    @Test func aStreamedBodyShorterThanDeclaredIsRefused() async throws {
        try await withURLSessionClient { client, server in
            let body = HTTPBody(
                AsyncStream<ArraySlice<UInt8>> {
                    $0.yield([1, 2, 3])
                    $0.finish()
                }, length: .known(10))
            let error = await failure(of: client, try Request(method: .post, url: server.url("/echo"), body: body))
            #expect(error != nil)
        }
    }

    @Test func aWrappedSessionIsUsableAndKeepsThePolicies() async throws {
        let appConfiguration = URLSessionConfiguration.default
        appConfiguration.httpAdditionalHeaders = ["X-App": "wrapped"]
        let appSession = URLSession(configuration: appConfiguration)
        defer { appSession.invalidateAndCancel() }
        try await withURLSessionClient(transport: URLSessionTransport(wrapping: appSession)) { client, server in
            let echo = try EchoReport(try await client.send(try Request(url: server.url("/echo"))))
            #expect(echo.values(of: "X-App") == ["wrapped"])
            let redirect = try await client.send(try Request(url: server.url("/redirect/1")))
            #expect(redirect.head.status.code == 302)
            #expect(server.requestCount(path: "/redirect/0") == 0)
            let cookies = try await client.send(try Request(url: server.url("/headers/many?count=1")))
            #expect(cookies.head.status == .ok)
            let again = try EchoReport(try await client.send(try Request(url: server.url("/echo"))))
            #expect(again.values(of: "Cookie").isEmpty)
        }
    }
}

@Suite(.timeLimit(.minutes(2))) struct URLSessionTransportPolicyTests {
    @Test func cookiesAreNeitherStoredNorSent() async throws {
        try await withURLSessionClient { client, server in
            _ = try await client.send(try Request(url: server.url("/headers/many?count=1")))
            let echo = try EchoReport(try await client.send(try Request(url: server.url("/echo"))))
            #expect(echo.values(of: "Cookie").isEmpty)
        }
    }

    @Test func transportAddedRequestHeadersAreTheDocumentedOnes() async throws {
        try await withURLSessionClient { client, server in
            let echo = try EchoReport(try await client.send(try Request(url: server.url("/echo"))))
            let names = Set(echo.headers.compactMap { $0.first?.lowercased() })
            #if canImport(FoundationNetworking)
            #expect(names == ["host", "accept", "accept-encoding", "connection", "user-agent", "accept-language"])
            #endif
            #expect(echo.values(of: "Accept-Encoding").first?.contains("gzip") == true)
        }
    }
}
