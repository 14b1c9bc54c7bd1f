import Foundation
import Logging
import Switchyard
import SwitchyardConformance
import SwitchyardObservability
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// What a new user's first requests get: the client's `User-Agent` on every transport, requests
/// from a `URL`, JSON decoding of a response, and a logger per request.
@Suite(.timeLimit(.minutes(3))) struct FirstHourLoopbackTests {
    @Test(arguments: TransportKind.allCases)
    func theStandardClientSendsItsUserAgentUnlessTheRequestHasOne(kind: TransportKind) async throws {
        try await withLoopbackClient(kind, configuration: ClientConfiguration()) { client, server in
            let url = try #require(URL(string: server.url("/echo")))
            let echo = try EchoReport(json: try await client.send(try Request(url: url)).body)
            #expect(echo.values(of: "User-Agent") == ["Switchyard/\(SwitchyardVersion.current)"])
            #expect(ClientConfiguration.defaultUserAgent == "Switchyard/\(SwitchyardVersion.current)")

            let own = try Request(url: server.url("/echo"), headers: ["User-Agent": "Shop/2.1"])
            #expect(try EchoReport(json: try await client.send(own).body).values(of: "User-Agent") == ["Shop/2.1"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anAppsUserAgentReplacesTheDefault(kind: TransportKind) async throws {
        var configuration = ClientConfiguration()
        configuration.userAgent = "Shop/3.0 (iOS)"
        try await withLoopbackClient(kind, configuration: configuration) { client, server in
            let echo = try EchoReport(json: try await client.send(try Request(url: server.url("/echo"))).body)
            #expect(echo.values(of: "User-Agent") == ["Shop/3.0 (iOS)"])
        }
    }

    @Test func aUserAgentWithALineBreakFailsEveryRequestWithInvalidRequest() async throws {
        var configuration = ClientConfiguration()
        configuration.userAgent = "Shop\r\nX-Injected: 1"
        try await withLoopbackClient(.curl, configuration: configuration) { client, server in
            let error = await failure(of: client, try Request(url: server.url("/echo")))
            #expect(error?.kind == .invalidRequest)
            #expect(server.requestCount(path: "/echo") == 0)
        }
    }

    @Test func aResponseDecodesItsJSONBodyOrSaysWhyNot() async throws {
        try await withLoopbackClient(.curl, configuration: ClientConfiguration()) { client, server in
            struct Echo: Decodable {
                var method: String
                var uri: String
            }
            let response = try await client.send(try Request(url: server.url("/echo/decoded")))
            let echo = try response.decode(Echo.self)
            #expect(echo.method == "GET")
            #expect(echo.uri == "/echo/decoded")
            struct Wrong: Decodable { var missing: Int }
            let error = #expect(throws: SwitchyardError.self) { try response.decode(Wrong.self) }
            #expect(error?.kind == .decoding)
            #expect(error?.response?.status == .ok)
            #expect(error?.message.contains("Wrong") == true)
        }
    }

    @Test func aRequestsOwnLoggerGetsItsLines() async throws {
        let clientLog = CapturedLog()
        let requestLog = CapturedLog()
        var configuration = ClientConfiguration()
        configuration.plugins.append(.logging(LoggingConfiguration(logger: clientLog.logger(level: .debug))))
        try await withLoopbackClient(.curl, configuration: configuration) { client, server in
            var request = try Request(url: server.url("/echo/own-logger"))
            request.options.logger = requestLog.logger(level: .debug)
            _ = try await client.send(request)
            _ = try await client.send(try Request(url: server.url("/echo/client-logger")))
        }
        #expect(requestLog.messages(at: .debug).count == 1)
        #expect(requestLog.messages(at: .debug).first?.contains("/echo/own-logger") == true)
        #expect(clientLog.messages(at: .debug).count == 1)
        #expect(clientLog.messages(at: .debug).first?.contains("/echo/client-logger") == true)
        // Which logger is not part of the request's identity.
        var logged = RequestOptions()
        logged.logger = requestLog.logger(level: .debug)
        var otherwiseLogged = RequestOptions()
        otherwiseLogged.logger = clientLog.logger(level: .trace)
        #expect(logged == otherwiseLogged)
    }
}
