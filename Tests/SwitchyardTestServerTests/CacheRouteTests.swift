import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@Suite("LoopbackServer /cache routes")
struct CacheRouteTests {
    @Test func fullResponsesCountAndConditionalRequestsGetNotModifiedWithTheFieldsAgain() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            let first = try connection.request("GET", "/cache/k?max_age=60&etag=v1&vary=Accept", headers: [("Accept", "a/b")])
            #expect(first.status == 200)
            #expect(first.bodyText == "k #1 Accept=a/b\n")
            #expect(first.value("Cache-Control") == "max-age=60")
            #expect(first.value("ETag") == "\"v1\"")
            #expect(first.value("Vary") == "Accept")
            #expect(first.value("X-Request-Number") == "1")

            let revalidated = try connection.request("GET", "/cache/k?max_age=60&etag=v1", headers: [("If-None-Match", "\"v1\"")])
            #expect(revalidated.status == 304)
            #expect(revalidated.value("ETag") == "\"v1\"")
            #expect(revalidated.value("X-Request-Number") == "2")

            let modified = try connection.request(
                "GET", "/cache/k?last_modified=Sun,%2006%20Nov%202022%2008:49:37%20GMT",
                headers: [("If-Modified-Since", "Sun, 06 Nov 2022 08:49:37 GMT")])
            #expect(modified.status == 304)
            let second = try connection.request("GET", "/cache/k?no_store=1&status=203")
            #expect(second.status == 203)
            #expect(second.bodyText == "k #2\n")
            #expect(second.value("Cache-Control") == "no-store")
            #expect(server.requestCount(path: "/cache/k") == 4)
        }
    }

    @Test func aKeysModeMakesItFailOrRecover() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            server.setCacheMode(.status(503), key: "m")
            let failed = try connection.request("GET", "/cache/m?max_age=60")
            #expect(failed.status == 503)
            #expect(failed.value("Cache-Control") == nil)
            #expect(try connection.request("GET", "/cache-mode/m/ok").status == 200)
            #expect(try connection.request("GET", "/cache/m?max_age=60").bodyText == "m #1\n")
        }
    }
}
