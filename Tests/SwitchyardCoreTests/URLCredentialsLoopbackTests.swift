import Foundation
import Switchyard
import SwitchyardConformance
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// User information in a request URL, as the server receives it through curl.
@Suite(.timeLimit(.minutes(2)))
struct URLCredentialsLoopbackTests {
    /// `http://USERINFO@127.0.0.1:PORT/path` on `server`.
    private static func url(_ server: LoopbackServer, userInfo: String, _ path: String) -> String {
        "http://\(userInfo)@127.0.0.1:\(server.port)\(path)"
    }

    private static func basic(_ credentials: String) -> String {
        "Basic " + Data(credentials.utf8).base64EncodedString()
    }

    @Test func percentDecodedUserAndPasswordAreSentAsBasicAuthorization() async throws {
        try await withCurlClient { client, server in
            let echo = try EchoReport(try await client.send(try Request(url: Self.url(server, userInfo: "ada:s%3Acret", "/echo"))))
            #expect(echo.values(of: "Authorization") == [Self.basic("ada:s:cret")])
            #expect(echo.values(of: "Host") == ["127.0.0.1:\(server.port)"])
            #expect(!echo.headers.flatMap { $0 }.contains { $0.contains("@") })
            #expect(echo.uri == "/echo")
        }
    }

    @Test func anExplicitAuthorizationHeaderWins() async throws {
        try await withCurlClient { client, server in
            let request = try Request(url: Self.url(server, userInfo: "ada:pw", "/echo"), headers: ["Authorization": "Bearer mine"])
            let echo = try EchoReport(try await client.send(request))
            #expect(echo.values(of: "Authorization") == ["Bearer mine"])
        }
    }

    @Test func aCrossOriginRedirectDoesNotCarryThem() async throws {
        let other = try await LoopbackServer.start()
        defer { Task { try? await other.shutdown() } }
        try await withCurlClient(interceptors: [RedirectInterceptor()]) { client, server in
            let location = other.url("/echo").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let crossOrigin = try EchoReport(
                try await client.send(
                    try Request(url: Self.url(server, userInfo: "ada:pw", "/redirect-to?location=\(location)"))))
            #expect(crossOrigin.values(of: "Authorization").isEmpty)
            #expect(other.requestCount(path: "/echo") == 1)

            let sameOrigin = try EchoReport(
                try await client.send(
                    try Request(url: Self.url(server, userInfo: "ada:pw", "/redirect-to?location=%2Fecho"))))
            #expect(sameOrigin.values(of: "Authorization") == [Self.basic("ada:pw")])
        }
    }
}
