// A file that imports both Switchyard and OpenAPIRuntime (and the generated client's module,
// here this test module), using the names both declare the way SwitchyardClientTransport's
// documentation says: `Client` is the generated client, `Switchyard.Client` Switchyard's; the body
// types go by `OpenAPIHTTPBody` / `SwitchyardHTTPBody` (or qualified), plain `HTTPBody` being ambiguous.
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Switchyard
import SwitchyardCurl
import SwitchyardOpenAPI
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct NameClashTests {
    @Test func aFileImportingBothModulesUsesTheCommonNames() async throws {
        try await withLoopbackServer { server in
            let switchyard: Switchyard.Client = Switchyard.Client(transport: CurlTransport(), interceptors: [])
            let api: Client = Client(
                serverURL: try #require(URL(string: server.baseURL)),
                transport: SwitchyardClientTransport(client: switchyard))

            // Switchyard's body and request types, unqualified where they do not clash.
            let plain: SwitchyardHTTPBody = SwitchyardHTTPBody("switchyard")
            let request = try Request(method: .post, url: server.url("/echo/body"), body: plain)
            let direct = try await switchyard.send(request)
            #expect(direct.text == "switchyard")

            // OpenAPI's body, through the generated client.
            let body: OpenAPIHTTPBody = "openapi"
            guard case .ok(let ok) = try await api.uploadBytes(body: .binary(body)), case .json(let echo) = ok.body else {
                Issue.record("uploadBytes did not answer 200")
                return
            }
            #expect(echo.body_length == 7)

            // The qualified spellings name the same types.
            let qualified: OpenAPIRuntime.HTTPBody = body
            let alsoQualified: Switchyard.HTTPBody = plain
            #expect(qualified === body && alsoQualified === plain)

            // swift-http-types' currency types are shared: no clash.
            let head = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/small")
            #expect(head.path == "/small")
        }
    }
}

// MARK: - The documentation example (SwitchyardClientTransport), compiled as written

/// What the example calls when the network is unreachable.
private func showOfflineBanner() {}

/// The example of ``SwitchyardClientTransport``'s documentation, verbatim; compiled, not run.
private func documentationExample() async throws {
    let switchyard = try Switchyard.Client(transport: CurlTransport(), configuration: ClientConfiguration())
    let api = Client(  // the generated client
        serverURL: URL(string: "https://api.example.com/v1")!,
        transport: SwitchyardClientTransport(client: switchyard)
    )
    do {
        let greeting = try await api.getGreeting(path: .init(name: "Ada"))
        print(try greeting.ok.body.json)
    } catch let error as ClientError {
        switch error.switchyardError?.kind {  // the Switchyard error inside
        case .timeout?, .connectionFailed?: showOfflineBanner()
        default: throw error
        }
    }
}

/// The example of ``SwitchyardClientTransport/withRequestOptions(_:operation:)``, compiled, not run.
private func perCallOptionsExample(api: Client) async throws {
    let greeting = try await SwitchyardClientTransport.withRequestOptions({ $0.timeout = .seconds(2) }) {
        try await api.getGreeting(path: .init(name: "Ada"))
    }
    _ = greeting
}

/// The example of ``OpenAPIMiddlewareInterceptor``, compiled, not run.
private func middlewareExample(token: String) -> ClientConfiguration {
    var configuration = ClientConfiguration()
    configuration.attemptInterceptors = [OpenAPIMiddlewareInterceptor(BearerMiddleware(token: token))]
    return configuration
}

/// The example of `ClientError.switchyardError`, compiled, not run.
private func clientErrorExample(client: Client) async throws {
    do { _ = try await client.getGreeting(path: .init(name: "Ada")) } catch let error as ClientError
        where error.switchyardError?.kind == .timeout
    { showOffline() }
}

/// What the `ClientError` example calls.
private func showOffline() {}

/// A middleware for the examples: adds a bearer token.
struct BearerMiddleware: ClientMiddleware {
    var token: String

    func intercept(
        _ request: HTTPRequest, body: OpenAPIHTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, OpenAPIHTTPBody?, URL) async throws -> (HTTPResponse, OpenAPIHTTPBody?)
    ) async throws -> (HTTPResponse, OpenAPIHTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}
