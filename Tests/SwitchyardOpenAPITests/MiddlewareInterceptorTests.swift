import Foundation
import HTTPTypes
import OpenAPIRuntime
import Switchyard
import SwitchyardConformance
import SwitchyardOpenAPI
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// OpenAPI `ClientMiddleware`s run as Switchyard interceptors, against the loopback server.
@Suite(.timeLimit(.minutes(2))) struct MiddlewareInterceptorTests {
    @Test(arguments: bridgeTransports) func aMiddlewareChangesTheRequestSeenAtTheServer(kind: TransportKind) async throws {
        let configuration = ClientConfiguration(
            retry: nil, attemptInterceptors: [OpenAPIMiddlewareInterceptor(OperationHeaderMiddleware())])
        try await withGeneratedClient(kind, configuration: configuration) { api, switchyard, server in
            // Through the generated client: the middleware is given the operation ID.
            let echo = try await api.getGreeting(path: .init(name: "ada")).ok.body.json
            #expect(echo.headers.contains(["X-OpenAPI-Operation", "getGreeting"]))

            // A plain Switchyard request: no operation ID; the response change reaches the caller.
            let response = try await switchyard.send(try Request(url: server.url("/echo")))
            let report = try EchoReport(response)
            #expect(report.values(of: "X-OpenAPI-Operation") == ["none"])
            #expect(response.head.headerFields[OperationHeaderMiddleware.responseField] == "yes")
        }
    }

    @Test(arguments: bridgeTransports) func aFixedOperationIDAndBodiesPassThrough(kind: TransportKind) async throws {
        let interceptor = OpenAPIMiddlewareInterceptor(OperationHeaderMiddleware(), operationID: "fixed")
        let configuration = ClientConfiguration(retry: nil, attemptInterceptors: [interceptor])
        try await withGeneratedClient(kind, configuration: configuration) { api, switchyard, server in
            let size = 300_000
            let stream = OpenAPIHTTPBody(patternStream(count: size, chunkSize: 32 << 10), length: .known(Int64(size)))
            guard case .ok(let ok) = try await api.uploadBytes(body: .binary(stream)), case .json(let echo) = ok.body else {
                Issue.record("uploadBytes did not answer 200")
                return
            }
            #expect(echo.headers.contains(["X-OpenAPI-Operation", "fixed"]))
            #expect(echo.body_length == size)
            #expect(echo.body_sha256 == sha256Hex(patternBytes(count: size)))

            // A streamed response through the middleware: intact.
            let streamed = try await switchyard.stream(try Request(url: server.url("/bytes/200000")))
            var offset = 0
            var mismatches = 0
            for try await chunk in streamed.body {
                for (index, byte) in chunk.enumerated() where byte != expectedPatternByte(at: offset + index) { mismatches += 1 }
                offset += chunk.count
            }
            #expect(offset == 200_000 && mismatches == 0)
        }
    }

    @Test func aMiddlewareThatRewritesTheBaseURLSendsThere() async throws {
        try await withLoopbackServer { other in
            let rewrite = BaseURLMiddleware(baseURL: try #require(URL(string: other.url("/echo/elsewhere"))))
            try await withCurlClient(interceptors: [OpenAPIMiddlewareInterceptor(rewrite)]) { client, server in
                let response = try await client.send(try Request(url: server.url("/small?x=1")))
                let report = try EchoReport(response)
                #expect(report.uri == "/echo/elsewhere/small?x=1")
                #expect(other.requestCount(path: "/echo/elsewhere/small") == 1)
                #expect(server.requestCount(path: "/small") == 0)
            }
        }
    }

    @Test func aMiddlewareErrorIsSealedWithItsName() async throws {
        try await withCurlClient(interceptors: [OpenAPIMiddlewareInterceptor(FailingMiddleware())]) { client, server in
            let error = await failure(of: client, try Request(url: server.url("/small")))
            #expect(error?.kind == .transport)
            #expect(error?.underlyingError is FailingMiddleware.Failure)
        }
    }
}

/// Sends every request to another base URL.
private struct BaseURLMiddleware: ClientMiddleware {
    var baseURL: URL

    func intercept(
        _ request: HTTPRequest, body: OpenAPIHTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, OpenAPIHTTPBody?, URL) async throws -> (HTTPResponse, OpenAPIHTTPBody?)
    ) async throws -> (HTTPResponse, OpenAPIHTTPBody?) {
        try await next(request, body, self.baseURL)
    }
}

/// Fails every request without calling `next`.
private struct FailingMiddleware: ClientMiddleware {
    struct Failure: Error {}

    func intercept(
        _ request: HTTPRequest, body: OpenAPIHTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, OpenAPIHTTPBody?, URL) async throws -> (HTTPResponse, OpenAPIHTTPBody?)
    ) async throws -> (HTTPResponse, OpenAPIHTTPBody?) {
        throw Failure()
    }
}
