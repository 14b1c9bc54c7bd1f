import Crypto
import Foundation
import HTTPTypes
import Switchyard
import SwitchyardActivity
import SwitchyardTestServer
import SwitchyardTransfers

/// The upload part of `yard demo`: a resumable upload (draft-ietf-httpbis-resumable-upload-10)
/// paused while the server has part of it, then resumed from the offset the server reports.
struct DemoUploadTour {
    let server: LoopbackServer
    let transportName: String
    let client: Client

    func run() async throws {
        let count = 8 << 20
        let bytes = (0..<count).map { UInt8($0 % 251) }
        let key = "demo-upload-\(transportName)"
        // The server stops reading once it has stored 2 MiB: the upload is paused there.
        let upload = client.upload(
            try Request(method: .post, url: server.url("/resumable/\(key)?hold_at=\(2 << 20)")), from: HTTPBody(bytes))
        let printer = Task {
            await ProgressPrinter(label: "   upload", interactive: ProgressPrinter.standardErrorIsTerminal).run(upload.progress)
        }
        upload.start()
        while server.resumableUploads(key: key).first?.isHolding != true {
            guard upload.state.phase.isActive else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        upload.pause()
        if case .paused(let sent) = upload.state {
            let stored = server.resumableUploads(key: key).first?.storedBytes ?? 0
            print("   ⏸ upload paused after \(sent) bytes sent; the server had stored \(stored)")
        }
        upload.resume()
        let result = try await upload.result()
        await printer.value
        let offset = result.resumedFrom.first.map { String($0) } ?? "none"
        let answer = try JSONSerialization.jsonObject(with: Data(result.body)) as? [String: Any]
        let local = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        let matches = (answer?["sha256"] as? String) == local ? "yes" : "no"
        print(
            "   ✓ resumed from the server's Upload-Offset: \(offset) → \(result.head.status.code),"
                + " \(result.byteCount) bytes, SHA-256 matches: \(matches)")
    }
}
