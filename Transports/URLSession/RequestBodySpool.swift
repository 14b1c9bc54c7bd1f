import Foundation
import SwitchyardCore

/// Collects a streamed request body before it is sent, for Linux.
///
/// corelibs reads a body `InputStream` with blocking reads on a work queue shared by every
/// URLSession in the process and ends the body as soon as no bytes are available, so it cannot
/// wait for an asynchronous producer. The body is therefore read completely first: into memory up
/// to a limit (sent with `Content-Length`), beyond it into a temporary file that the transport
/// sends from a file stream (chunked). Memory stays bounded.
enum RequestBodySpool {
    /// Where the collected body is.
    enum Spooled {
        case bytes(Data)
        case file(URL)
    }

    /// Reads `body` to its end, checking it against its declared length.
    /// - Throws: ``SwitchyardError/Kind/cancelled`` when the task is cancelled, the body's own
    ///   error, or ``SwitchyardError/Kind/invalidRequest`` when the body's size contradicts its declared length.
    static func spool(_ body: HTTPBody, memoryLimit: Int) async throws -> Spooled {
        var memory = Data()
        var file: (url: URL, handle: FileHandle)?
        var total: Int64 = 0
        do {
            for try await chunk in body where !chunk.isEmpty {
                try Task.checkCancellation()
                total += Int64(chunk.count)
                if file == nil, memory.count + chunk.count <= memoryLimit {
                    memory.append(contentsOf: chunk)
                    continue
                }
                if file == nil {
                    let url = URL(fileURLWithPath: NSTemporaryDirectory())
                        .appendingPathComponent("switchyard-upload-\(UUID().uuidString)")
                    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                        throw SwitchyardError.transportFailed(
                            "Could not create a temporary file for the request body"
                                + " in \(NSTemporaryDirectory()).")
                    }
                    let handle = try FileHandle(forWritingTo: url)
                    file = (url, handle)
                    try handle.write(contentsOf: memory)
                    memory = Data()
                }
                try file?.handle.write(contentsOf: chunk)
            }
            // A cancelled AsyncStream simply ends: never take that for the end of the body.
            try Task.checkCancellation()
            if case .known(let declared) = body.length, declared != total {
                throw SwitchyardError.invalidRequest(
                    "The request body declared \(declared) bytes but produced"
                        + " \(total); nothing was sent.")
            }
        } catch {
            if let file {
                try? file.handle.close()
                try? FileManager.default.removeItem(at: file.url)
            }
            if error is CancellationError { throw SwitchyardError.cancelled }
            throw error
        }
        guard let file else { return .bytes(memory) }
        try file.handle.close()
        return .file(file.url)
    }
}
