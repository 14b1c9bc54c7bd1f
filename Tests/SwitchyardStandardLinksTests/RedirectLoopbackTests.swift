import Foundation
import HTTPTypes
import Switchyard
import SwitchyardConformance
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// `/redirect-to` on `server`, pointing at `location` with `status`.
private func redirectTarget(_ server: LoopbackServer, to location: String, status: Int = 302) -> String {
    let encoded = location.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? location
    return server.url("/redirect-to?status=\(status)&location=\(encoded)")
}

@Suite(.timeLimit(.minutes(2))) struct RedirectLoopbackTests {
    @Test func authorizationStaysWithinTheOriginOnly() async throws {
        let other = try await LoopbackServer.start()
        defer { Task { try await other.shutdown() } }
        try await withCurlClient(interceptors: [RedirectInterceptor()]) { client, server in
            let headers: KeyValuePairs<String, String> = ["Authorization": "Bearer secret", "Cookie": "s=1", "X-Trace": "t"]
            let crossOrigin = try EchoReport(
                try await client.send(
                    try Request(url: redirectTarget(server, to: other.url("/echo")), headers: headers)))
            #expect(crossOrigin.values(of: "Authorization").isEmpty)
            #expect(crossOrigin.values(of: "Cookie").isEmpty)
            #expect(crossOrigin.values(of: "X-Trace") == ["t"])
            #expect(other.requestCount(path: "/echo") == 1)

            let sameOrigin = try EchoReport(
                try await client.send(
                    try Request(url: redirectTarget(server, to: "/echo"), headers: headers)))
            #expect(sameOrigin.values(of: "Authorization") == ["Bearer secret"])
            #expect(sameOrigin.values(of: "Cookie") == ["s=1"])
        }
    }

    @Test func seeOtherTurnsAPostIntoABodylessGet() async throws {
        try await withCurlClient(interceptors: [RedirectInterceptor()]) { client, server in
            let request = try Request(
                method: .post, url: redirectTarget(server, to: "/echo", status: 303),
                headers: ["Content-Type": "text/plain"], body: HTTPBody("payload"))
            let echo = try EchoReport(try await client.send(request))
            #expect(echo.method == "GET")
            #expect(echo.bodyLength == 0)
            #expect(echo.values(of: "Content-Type").isEmpty)
            #expect(echo.values(of: "Content-Length").isEmpty)
        }
    }

    @Test func temporaryRedirectKeepsMethodAndBody() async throws {
        try await withCurlClient(interceptors: [RedirectInterceptor()]) { client, server in
            let payload = HTTPBody("payload for 307")
            let direct = try EchoReport(try await client.send(try Request(method: .post, url: server.url("/echo"), body: payload)))
            let request = try Request(
                method: .post, url: redirectTarget(server, to: "/echo", status: 307),
                headers: ["Content-Type": "text/plain"], body: payload)
            let echo = try EchoReport(try await client.send(request))
            #expect(echo.method == "POST")
            #expect(echo.bodyLength == direct.bodyLength)
            #expect(echo.bodySHA256 == direct.bodySHA256)
            #expect(echo.values(of: "Content-Type") == ["text/plain"])
        }
    }

    @Test func tooManyHopsFail() async throws {
        try await withCurlClient(interceptors: [RedirectInterceptor(policy: RedirectPolicy(maxRedirects: 5))]) { client, server in
            let error = await failure(of: client, try Request(url: server.url("/redirect/20")))
            #expect(error?.kind == .tooManyRedirects)
            #expect(error?.message.contains("/redirect/14") == true)
            #expect(server.requestCount(path: "/redirect/15") == 1)
            #expect(server.requestCount(path: "/redirect/14") == 0)
            let fine = try await client.send(try Request(url: server.url("/redirect/5")))
            #expect(fine.text == "redirected\n")
        }
    }

    @Test func eachHopIsRetriedOnItsOwn() async throws {
        let chain: [any Interceptor] = [
            RedirectInterceptor(),
            RetryInterceptor(policy: RetryPolicy(backoff: RetryBackoff(random: { 0 })))
        ]
        try await withCurlClient(interceptors: chain) { client, server in
            let response = try await client.send(try Request(url: redirectTarget(server, to: "/flaky/hop/1")))
            #expect(response.text == "ok after 1\n")
            #expect(server.flakyArrivals(key: "hop").count == 2)
        }
    }
}
