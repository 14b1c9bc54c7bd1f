import Foundation
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@Suite("LoopbackServer /upload/multipart")
struct MultipartRouteTests {
    private func body(boundary: String, filename: String, fileBytes: [UInt8]) -> [UInt8] {
        var body = Array("preamble\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHoliday\r\n".utf8)
        body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"\(filename)\"\r\n".utf8)
        body += Array("Content-Type: image/jpeg\r\n\r\n".utf8) + fileBytes + Array("\r\n--\(boundary)--\r\n".utf8)
        return body
    }

    @Test func partsAreParsedWithNamesFilenamesCountsAndDigests() async throws {
        try await withLoopbackServer { server in
            // Content that contains the boundary's prefix and CRLFs must not confuse the parser.
            let fileBytes = Array("\r\n--b0und\r\n--b0un".utf8) + patternBytes(count: 200_000)
            let payload = body(boundary: "b0undary", filename: "Gr%22üße.jpg", fileBytes: fileBytes)
            let response = try RawConnection(port: server.port).request(
                "POST", "/upload/multipart", headers: [("Content-Type", "multipart/form-data; boundary=b0undary")], body: payload)
            #expect(response.status == 200)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            let parts = try #require(json["parts"] as? [[String: Any]])
            #expect(parts.count == 2)
            #expect(parts.first?["name"] as? String == "title")
            #expect(parts.first?["value"] as? String == "Holiday")
            #expect(parts.first?["filename"] is NSNull)
            #expect(parts.last?["name"] as? String == "photo")
            #expect(parts.last?["filename"] as? String == "Gr\"üße.jpg")
            #expect(parts.last?["content_type"] as? String == "image/jpeg")
            #expect(parts.last?["bytes"] as? Int == fileBytes.count)
            #expect(parts.last?["sha256"] as? String == sha256Hex(fileBytes))
        }
    }

    @Test func aBodyWithoutTheClosingBoundaryIs400() async throws {
        try await withLoopbackServer { server in
            let payload = Array("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx".utf8)
            let response = try RawConnection(port: server.port).request(
                "POST", "/upload/multipart", headers: [("Content-Type", "multipart/form-data; boundary=b")], body: payload)
            #expect(response.status == 400)
        }
    }
}
