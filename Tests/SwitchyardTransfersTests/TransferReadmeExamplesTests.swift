import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAPI
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardTransfers
import Testing

// The "Uploads and downloads" README examples (texts proposed in issue 13's report), compiled
// and run here against the loopback server, so that they cannot drift from the code.

// --- README: a download with progress, pause and resume ---
func downloadBigFile(_ client: Client, from url: String, to path: String) async throws -> DownloadResult {
    let download = client.download(try Request(method: .get, url: url), to: path)
    Task { @MainActor in
        for await update in download.progress {  // ≤ 20 updates a second, then a final one
            print("\(update.completedBytes) of \(update.expectedBytes ?? 0) bytes, \(Int(update.bytesPerSecond)) B/s")
        }
    }
    download.start()
    download.pause()  // .paused(completedBytes:): the exchange stops, path + ".part" stays
    download.resume()  // Range: bytes=N- with If-Range: the stored ETag
    return try await download.result()  // verified, then renamed to `path` atomically
}

// --- README: a multipart upload streamed from disk ---
func uploadVideo(_ client: Client, to url: String, path: String) async throws -> String {
    let form = MultipartForm(parts: [
        .field("title", "Holiday"),
        .fileAtPath("video", filename: "Ferien in Zürich.mp4", contentType: "video/mp4", path: path)
    ])
    let (body, progress) = try form.body().withProgress()
    var request = try Request(method: .post, url: url, body: body)
    request.head.headerFields[.contentType] = form.contentType
    Task { for await update in progress { print("uploaded \(Int((update.fractionCompleted ?? 0) * 100))%") } }
    return try await client.send(request).text
}

@Suite(.timeLimit(.minutes(2))) struct TransferReadmeExamplesTests {
    @Test func theDownloadExampleRuns() async throws {
        try await withCurlClient { client, server in
            let path = try makeTemporaryDirectory() + "/big.bin"
            let result = try await downloadBigFile(client, from: server.url("/bytes/\(4 << 20)"), to: path)
            #expect(result.byteCount == 4 << 20)
            #expect(try fileMatchesPattern(at: path, count: 4 << 20))
        }
    }

    @Test func theUploadExampleRuns() async throws {
        try await withCurlClient { client, server in
            let path = try makeTemporaryDirectory() + "/movie.mp4"
            try writePatternFile(at: path, count: 1 << 20)
            let answer = try await uploadVideo(client, to: server.url("/upload/multipart"), path: path)
            #expect(answer.contains(#""filename":"Ferien in Zürich.mp4""#))
            #expect(answer.contains(#""bytes":1048576"#))
        }
    }
}
