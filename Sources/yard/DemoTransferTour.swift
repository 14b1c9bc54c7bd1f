import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTestServer
import SwitchyardTransfers

/// The transfer part of `yard demo`: a download to a file with a progress bar, interrupted by the
/// server and resumed from where it stopped.
struct DemoTransferTour {
    let server: LoopbackServer
    let transportName: String
    let client: Client

    func run() async throws {
        let directory = NSTemporaryDirectory() + "yard-demo-\(UInt64.random(in: 0..<UInt64.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/download.bin"
        let count = 32 << 20
        let cut = 12 << 20
        let tag = "demo-download-\(transportName)"

        // The server stops sending at 12 MiB; once those bytes are in the partial file it drops the connection.
        let first = client.download(try Request(url: server.url("/bytes/\(count)?stall_at=\(cut)&tag=\(tag)")), to: path)
        let printer = Task {
            await ProgressPrinter(label: "   download", interactive: ProgressPrinter.standardErrorIsTerminal).run(first.progress)
        }
        first.start()
        while Self.size(of: first.partialPath) < cut { try await Task.sleep(for: .milliseconds(20)) }
        server.dropConnections(tag: tag)
        do {
            _ = try await first.result()
        } catch {
            print(
                "   ✗ interrupted at \(Self.size(of: first.partialPath)) bytes (\(error.kind.rawValue)); \(path.split(separator: "/").last ?? "").part kept"
            )
        }
        await printer.value

        let second = client.download(try Request(url: server.url("/bytes/\(count)?tag=\(tag)-resume")), to: path)
        let secondPrinter = Task {
            await ProgressPrinter(label: "   resume", interactive: ProgressPrinter.standardErrorIsTerminal).run(second.progress)
        }
        let result = try await second.result()
        await secondPrinter.value
        let range = server.rangeHeaders(tag: "\(tag)-resume").first.flatMap { $0 } ?? "none"
        print(
            "   ✓ resumed with Range: \(range) → \(result.head.status.code), \(result.byteCount) bytes in the file,"
                + " renamed into place only when complete")
    }

    private static func size(of path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }
}
