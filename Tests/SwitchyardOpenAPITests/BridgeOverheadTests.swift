import Foundation
import HTTPTypes
import OpenAPIRuntime
import Switchyard
import SwitchyardOpenAPI
import Testing

/// What the bridge adds to a call, over an in-memory transport: a direct Switchyard call, the same
/// call through `SwitchyardClientTransport`, and a chain with a no-op `ClientMiddleware` as an
/// interceptor. Prints microseconds per call; asserts only that every call succeeded (never a
/// timing). `SWITCHYARD_MEASURE=N` runs N calls per variant (default 200).
@Suite struct BridgeOverheadTests {
    @Test func theBridgeCostsLittleOverADirectCall() async throws {
        let iterations = ProcessInfo.processInfo.environment["SWITCHYARD_MEASURE"].flatMap(Int.init) ?? 200
        let plain = Switchyard.Client(transport: MemoryTransport(), interceptors: [])
        let bridged = SwitchyardClientTransport(client: plain)
        let withMiddleware = Switchyard.Client(transport: MemoryTransport(), interceptors: [OpenAPIMiddlewareInterceptor(NoOpMiddleware())])
        let baseURL = try #require(URL(string: "http://api.example.com/v1"))
        let head = HTTPRequest(method: .get, scheme: "http", authority: "api.example.com", path: "/v1/items/42")
        let relative = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/items/42")

        let direct = try await measure(iterations) {
            let response = try await plain.stream(Request(head))
            return try await response.body.collect(upTo: 1024).count
        }
        let bridge = try await measure(iterations) {
            let (_, body) = try await bridged.send(relative, body: nil, baseURL: baseURL, operationID: "getItem")
            return try await [UInt8](collecting: try #require(body), upTo: 1024).count
        }
        let middleware = try await measure(iterations) {
            let response = try await withMiddleware.stream(Request(head))
            return try await response.body.collect(upTo: 1024).count
        }
        print(
            "OpenAPI bridge, \(iterations) calls each, µs/call: direct \(direct), through SwitchyardClientTransport \(bridge),"
                + " with a no-op ClientMiddleware interceptor \(middleware)")
    }

    /// Runs `call` `iterations` times after a warm-up and returns microseconds per call.
    private func measure(_ iterations: Int, _ call: () async throws -> Int) async throws -> Double {
        for _ in 0..<10 { #expect(try await call() == 2) }
        let clock = ContinuousClock()
        var bytes = 0
        let elapsed = try await clock.measure {
            for _ in 0..<iterations { bytes += try await call() }
        }
        #expect(bytes == 2 * iterations)
        let (seconds, attoseconds) = elapsed.components
        return ((Double(seconds) * 1e6 + Double(attoseconds) / 1e12) / Double(iterations) * 10).rounded() / 10
    }
}

/// Answers every request with 200 `ok` from memory.
private struct MemoryTransport: Transport {
    func send(_ request: Request, context: ExchangeContext) async throws -> Response {
        Response(status: .ok, body: Array("ok".utf8))
    }
}

/// Passes every request on unchanged.
private struct NoOpMiddleware: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, body: OpenAPIHTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, OpenAPIHTTPBody?, URL) async throws -> (HTTPResponse, OpenAPIHTTPBody?)
    ) async throws -> (HTTPResponse, OpenAPIHTTPBody?) {
        try await next(request, body, baseURL)
    }
}
