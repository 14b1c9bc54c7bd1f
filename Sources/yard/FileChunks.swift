import Foundation
import Switchyard

/// The chunks of a file, read 64 KiB at a time; every iteration reopens the file, so a body made
/// from it is replayable.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    let path: String

    struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FileHandle?
        let path: String

        mutating func next() async throws -> ArraySlice<UInt8>? {
            guard let handle else {
                throw SwitchyardError.invalidRequest("Cannot open '\(path)' to send it as the body.")
            }
            guard let data = try handle.read(upToCount: 64 * 1024), !data.isEmpty else {
                try? handle.close()
                return nil
            }
            return ArraySlice(data)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(handle: FileHandle(forReadingAtPath: path), path: path)
    }

    /// A replayable body streaming the file, with its size as the known length.
    static func body(path: String) throws -> HTTPBody {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = attributes[.size] as? NSNumber else {
            throw SwitchyardError.invalidRequest("Cannot read '\(path)': no such file, or not readable.")
        }
        return HTTPBody(FileChunks(path: path), length: .known(size.int64Value), replayability: .replayable)
    }
}
