import Foundation
import SwitchyardTestSupport
import Testing

@testable import SwitchyardTestServer

@Suite("LoopbackServer echo routes")
struct EchoTests {
    @Test func echoReportsHeadersInOrderWithOriginalCase() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            try connection.send(
                "POST /echo?x=1 HTTP/1.1\r\nHost: here\r\nX-First: 1\r\nx-lower: two\r\nX-First: again\r\n"
                    + "CamelCase-Header: V \"q\"\r\nContent-Length: 3\r\n\r\nabc"
            )
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(response.value("Content-Type") == "application/json")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            #expect(object["method"] as? String == "POST")
            #expect(object["uri"] as? String == "/echo?x=1")
            #expect(object["version"] as? String == "HTTP/1.1")
            let headers = try #require(object["headers"] as? [[String]])
            #expect(
                headers == [
                    ["Host", "here"], ["X-First", "1"], ["x-lower", "two"], ["X-First", "again"],
                    ["CamelCase-Header", "V \"q\""], ["Content-Length", "3"]
                ])
            #expect(object["body_length"] as? Int == 3)
            #expect(object["body_sha256"] as? String == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
            // Exact shape of the start of the document.
            #expect(response.bodyText.hasPrefix(#"{"method":"POST","uri":"/echo?x=1","version":"HTTP/1.1","headers":[["Host","here"],"#))
        }
    }

    @Test func echoHashesLargeChunkedBody() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            let body = patternBytes(count: 100_000)
            var request = Array("PUT /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
            for start in stride(from: 0, to: body.count, by: 30_000) {
                let piece = body[start..<min(start + 30_000, body.count)]
                request += Array(String(piece.count, radix: 16).utf8) + [13, 10] + piece + [13, 10]
            }
            request += Array("0\r\n\r\n".utf8)
            try connection.send(request)
            let response = try connection.readResponse()
            let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            #expect(object["method"] as? String == "PUT")
            #expect(object["body_length"] as? Int == body.count)
            #expect(object["body_sha256"] as? String == BodyDigest.hexDigest(of: body))
        }
    }

    @Test func echoBodyReturnsBodyAndContentType() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            let body = patternBytes(count: 300_000, from: 7)
            let response = try connection.request(
                "POST", "/echo/body", headers: [("Content-Type", "application/x-test")], body: body)
            #expect(response.status == 200)
            #expect(response.value("Content-Type") == "application/x-test")
            #expect(response.body == body)
            let empty = try connection.request("POST", "/echo/body")
            #expect(empty.value("Content-Length") == "0")
            #expect(empty.value("Content-Type") == nil)
        }
    }

    @Test func expectContinueIsAnswered() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("POST /echo/body HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
            let interim = try connection.readResponse()
            #expect(interim.status == 100)
            try connection.send("data")
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(response.bodyText == "data")
        }
    }
}
