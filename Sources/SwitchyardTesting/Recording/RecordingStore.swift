import Foundation
import HTTPTypes
import SwitchyardCore

/// The directory a ``RecordingTransport`` writes to: numbers exchanges, encodes them and writes one file each.
final class RecordingStore: Sendable {
    let directory: URL
    let redactedHeaderNames: Set<HTTPField.Name>
    let queryRedaction: QueryRedaction

    private struct State {
        var nextSequence = 1
        var files: [URL] = []
    }

    private let state = Lock(State())

    init(directory: URL, redactedHeaderNames: Set<HTTPField.Name>, queryRedaction: QueryRedaction) throws(SwitchyardError) {
        self.directory = directory
        self.redactedHeaderNames = redactedHeaderNames
        self.queryRedaction = queryRedaction
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .invalidRequest("Cannot create the recording directory \(directory.path): \(error)")
        }
    }

    /// Reserves the next sequence number, from 1.
    func nextSequence() -> Int {
        state.withLock { state in
            defer { state.nextSequence += 1 }
            return state.nextSequence
        }
    }

    /// The files written so far, in the order they were written.
    var files: [URL] { state.withLock { $0.files } }

    /// Writes `exchange` as pretty-printed JSON with sorted keys, replacing a file of the same name.
    /// - Throws: ``SwitchyardError/Kind/transport`` naming the file when encoding or writing fails.
    func write(_ exchange: RecordedExchange) throws(SwitchyardError) {
        let name = RecordingFileName.make(
            sequence: exchange.sequence, method: exchange.request.method, path: exchange.request.path)
        let url = directory.appendingPathComponent(name)
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            var data = try encoder.encode(exchange)
            data.append(UInt8(ascii: "\n"))
            try data.write(to: url, options: .atomic)
        } catch {
            throw .transportFailed(
                "Could not write the recorded exchange \(url.path): \(error)",
                underlyingError: error)
        }
        state.withLock { $0.files.append(url) }
    }
}
