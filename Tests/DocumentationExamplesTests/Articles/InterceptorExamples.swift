import HTTPTypes
import Switchyard
import SwitchyardCurl
import Testing

// Sources/Switchyard/Switchyard.docc/WriteAnInterceptor.md, compiled and run over an in-memory transport.

// doc:struct-interceptor
struct APIVersionInterceptor: Interceptor {
    static let header = HTTPField.Name("X-API-Version")!
    let version: String

    func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        var request = request
        request.head.headerFields[Self.header] = version
        return try await next(request)
    }
}
// end

// doc:short-circuit
struct MaintenanceInterceptor: Interceptor {
    let isDown: @Sendable () -> Bool

    func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        guard !isDown() else {  // answer without calling next: no I/O at all
            return Response(status: .serviceUnavailable, body: Array("down for maintenance\n".utf8))
        }
        return try await next(request)
    }
}
// end

func interceptorTiming() -> ClosureInterceptor {
    // doc:closure-interceptor
    let timing = ClosureInterceptor(name: "timing") { request, context, next in
        let start = ContinuousClock.now
        do {
            let response = try await next(request)
            print(request.head.path ?? "/", response.head.status.code, "attempt", context.attempt, ContinuousClock.now - start)
            return response
        } catch {
            print(request.head.path ?? "/", "failed:", error, ContinuousClock.now - start)
            throw error  // or return a response instead
        }
    }
    // end
    return timing
}

func interceptorPlacement(timing: ClosureInterceptor) throws -> Client {
    // doc:placement
    var configuration = ClientConfiguration()
    configuration.callInterceptors = [APIVersionInterceptor(version: "2026-01")]  // once per call
    configuration.attemptInterceptors = [timing]  // once per attempt: every retry, every redirect hop
    let client = try Client(transport: CurlTransport(), configuration: configuration)
    for link in client.chain { print(link) }  // the whole chain, in order
    // end
    return client
}

@Suite struct InterceptorExamples {
    @Test func theVersionHeaderReachesTheTransport() async throws {
        // doc:test-interceptor
        let echo = ClosureTransport { request, _ in
            Response(status: .ok, body: Array((request.head.headerFields[APIVersionInterceptor.header] ?? "").utf8))
        }
        let client = Client(transport: echo, interceptors: [APIVersionInterceptor(version: "2026-01")])
        let response = try await client.send(try Request(url: "https://api.example.com/version"))
        #expect(response.text == "2026-01")
        // end
    }

    @Test func theMaintenanceInterceptorAnswersItself() async throws {
        let client = Client(
            transport: ClosureTransport { _, _ in
                Issue.record("reached the transport")
                return Response(status: .ok)
            },
            interceptors: [MaintenanceInterceptor(isDown: { true }), interceptorTiming()])
        let response = try await client.send(try Request(url: "https://api.example.com/"))
        #expect(response.head.status == .serviceUnavailable)
    }

    @Test func thePlacementListsBothLinks() throws {
        let names = try interceptorPlacement(timing: interceptorTiming()).chain.map { "\($0)" }
        #expect(names.contains { $0.contains("timing") })
    }
}
