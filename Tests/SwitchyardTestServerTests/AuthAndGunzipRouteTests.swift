import Foundation
import SwitchyardTestSupport
import Testing

@testable import SwitchyardTestServer

@Suite("LoopbackServer /auth and /gunzip routes")
struct AuthAndGunzipRouteTests {
    @Test func authAcceptsOnlyTheKeysTokenAndCountsBothOutcomes() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            #expect(
                try connection.request("GET", "/auth/a", headers: [("Authorization", "Bearer t1")]).status == 401,
                "no token set yet")
            server.setAuthToken("t1", key: "a")
            let accepted = try connection.request("GET", "/auth/a", headers: [("Authorization", "Bearer t1")])
            #expect(accepted.status == 200)
            #expect(accepted.bodyText == "ok a\n")
            let refused = try connection.request("GET", "/auth/a", headers: [("Authorization", "Bearer t2")])
            #expect(refused.status == 401)
            #expect(refused.value("WWW-Authenticate") == "Bearer")
            #expect(try connection.request("GET", "/auth/a").status == 401)
            #expect(try connection.request("GET", "/auth/b", headers: [("Authorization", "Bearer t1")]).status == 401)
            #expect(server.authRequests(key: "a") == (1, 3))
            #expect(server.authRequests(key: "b") == (0, 1))
        }
    }

    @Test func gunzipReportsTheDecodedBody() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            let plain = Array(String(repeating: "gunzip me\n", count: 1000).utf8)
            let gzipped = Deflate.gzip(plain)
            let response = try connection.request(
                "POST", "/gunzip", headers: [("Content-Encoding", "gzip")],
                body: gzipped)
            #expect(response.status == 200)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            #expect(json["content_encoding"] as? String == "gzip")
            #expect(json["received_length"] as? Int == gzipped.count)
            #expect(json["length"] as? Int == plain.count)
            #expect(json["sha256"] as? String == sha256Hex(plain))

            let broken = try connection.request(
                "POST", "/gunzip", headers: [("Content-Encoding", "gzip")], body: [1, 2, 3, 4])
            #expect(broken.status == 400)
        }
    }
}
