import Foundation
import HTTPTypes
import Switchyard
import Synchronization
import Testing

/// Runs `body` with a fresh, empty directory under the system's temporary directory, and deletes it afterwards.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("switchyard-testing-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try await body(url)
}

/// A response body whose chunks are produced on demand, counting how many were pulled.
final class CountingChunks: AsyncSequence, Sendable {
    typealias Element = [UInt8]

    let chunks: [[UInt8]]
    private let pulled = Atomic<Int>(0)

    init(_ chunks: [[UInt8]]) { self.chunks = chunks }

    /// How many chunks readers have pulled so far.
    var pulledCount: Int { pulled.load(ordering: .relaxed) }

    /// The concatenation of all chunks.
    var allBytes: [UInt8] { chunks.flatMap { $0 } }

    struct AsyncIterator: AsyncIteratorProtocol {
        let owner: CountingChunks
        var index = 0
        mutating func next() async throws -> [UInt8]? {
            guard index < owner.chunks.count else { return nil }
            defer { index += 1 }
            owner.pulled.add(1, ordering: .relaxed)
            return owner.chunks[index]
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(owner: self) }

    /// A single-use streamed body over these chunks, with or without a declared length.
    func body(declaringLength: Bool = false) -> HTTPBody {
        HTTPBody(self, length: declaringLength ? .known(Int64(allBytes.count)) : .unknown)
    }
}

/// A body that yields `bytes` and then fails with `error`.
struct FailingChunks: AsyncSequence, Sendable {
    typealias Element = [UInt8]
    let bytes: [UInt8]
    let error: SwitchyardError

    struct AsyncIterator: AsyncIteratorProtocol {
        var pending: [UInt8]?
        let error: SwitchyardError
        mutating func next() async throws -> [UInt8]? {
            if let bytes = pending {
                pending = nil
                return bytes
            }
            throw error
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(pending: bytes, error: error) }
}

extension HTTPField.Name {
    static let xTrace = Self("X-Trace")!
    static let xMixedCase = Self("X-MiXeD-CaSe")!
}

/// Every byte value, up and down: not valid UTF-8.
let binaryBytes: [UInt8] = Array(0...255) + Array((0...255).reversed())
