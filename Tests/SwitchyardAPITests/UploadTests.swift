import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAPI
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardTransfers
import Testing

/// The parts `/upload/multipart` reports.
struct UploadedPart: Decodable, Equatable {
    var name: String
    var filename: String?
    var contentType: String?
    var bytes: Int
    var sha256: String
    var value: String?

    enum CodingKeys: String, CodingKey {
        case name, filename, bytes, sha256, value
        case contentType = "content_type"
    }
}

/// `{"parts":[…]}`.
struct UploadedForm: Decodable {
    var parts: [UploadedPart]
}

@Suite(.timeLimit(.minutes(3))) struct UploadTests {
    @Test(arguments: TransportKind.allCases)
    func aFileUploadIsStreamedWithProgress(kind: TransportKind) async throws {
        try await withAPI(kind) { api, server in
            let path = try makeTemporaryDirectory() + "/upload.bin"
            let count = 3 << 20
            try writePatternFile(at: path, count: count)
            let (body, progress) = try HTTPBody.file(atPath: path).withProgress()
            #expect(body.length == .known(Int64(count)))
            let updates = collect(progress)
            let response = try await api.client.send(try Request(method: .put, url: server.url("/echo"), body: body))
            let echo = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            #expect(echo?["body_length"] as? Int == count)
            #expect(echo?["body_sha256"] as? String == sha256Hex((0..<count).map { UInt8($0 % 251) }))
            let seen = await updates.value
            #expect(seen.last?.isFinal == true)
            #expect(seen.last?.completedBytes == Int64(count))
            #expect(seen.last?.expectedBytes == Int64(count))
        }
    }

    @Test func aMissingFileIsAnInvalidRequest() throws {
        let error = #expect(throws: SwitchyardError.self) { try HTTPBody.file(atPath: "/nonexistent/switchyard-upload") }
        #expect(error?.kind == .invalidRequest)
    }

    @Test(arguments: TransportKind.allCases)
    func aMultipartEndpointStreamsFieldsAndFiles(kind: TransportKind) async throws {
        try await withAPI(kind) { api, _ in
            let path = try makeTemporaryDirectory() + "/photo.bin"
            try writePatternFile(at: path, count: 1_000_000)
            let stream = HTTPBody(
                AsyncStream<ArraySlice<UInt8>> { continuation in
                    continuation.yield(Array("streamed ".utf8)[...])
                    continuation.yield(Array("bytes".utf8)[...])
                    continuation.finish()
                })
            let form = MultipartForm(parts: [
                .field("title", "Ferien in Zürich"),
                .fileAtPath("photo", filename: "Grüße \"1\".bin", contentType: "application/octet-stream", path: path),
                .file("note", filename: "note.txt", contentType: "text/plain", bytes: Array("hello".utf8)),
                .stream("log", filename: "log.txt", contentType: "text/plain", body: stream)
            ])
            let endpoint = Endpoint<UploadedForm>(.post, "/upload/multipart").body(.multipart(form))
            let uploaded = try await api.value(endpoint)
            #expect(uploaded.parts.map(\.name) == ["title", "photo", "note", "log"])
            #expect(uploaded.parts[0].value == "Ferien in Zürich")
            #expect(uploaded.parts[1].filename == "Grüße \"1\".bin")
            #expect(uploaded.parts[1].bytes == 1_000_000)
            #expect(uploaded.parts[1].sha256 == sha256Hex((0..<1_000_000).map { UInt8($0 % 251) }))
            #expect(uploaded.parts[2].sha256 == sha256Hex(Array("hello".utf8)))
            #expect(uploaded.parts[3].bytes == "streamed bytes".utf8.count)
        }
    }

    @Test func aFormOfKnownPartsHasAKnownLengthEqualToItsEncoding() async throws {
        let form = MultipartForm(
            parts: [.field("a", "1"), .file("b", filename: "b.txt", contentType: "text/plain", bytes: [1, 2, 3])],
            boundary: "XYZ")
        let body = try form.body()
        var bytes: [UInt8] = []
        for try await chunk in body { bytes += chunk }
        #expect(body.length == .known(Int64(bytes.count)))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("--XYZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--XYZ\r\n"))
        #expect(text.hasSuffix("\r\n--XYZ--\r\n"))
        #expect(form.contentType == "multipart/form-data; boundary=XYZ")
    }
}
