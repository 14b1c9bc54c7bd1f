import Foundation
import SwitchyardCore
import SwitchyardTransportKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The response bytes received but not yet read, in arrival order, with bounded memory.
///
/// Up to ``memoryLimit`` bytes stay in memory. When URLSession cannot be slowed down (on Linux,
/// see ``URLSessionTransport``), further bytes are appended to an anonymous temporary file and read
/// back in order, so resident memory stays bounded however slowly the body is read. The file is
/// unlinked as soon as it is created and closed when the buffer goes away.
///
/// Not thread-safe: it lives inside its exchange's lock.
struct ResponseBodyBuffer {
    /// The largest chunk handed to a reader from the spill file.
    static let readChunkBytes = 256 * 1024

    let memoryLimit: Int
    /// The bytes in memory: the transport kit's chunk queue.
    private var memory = ResponseChunks()
    private var spill: SpillFile?

    /// Bytes waiting in memory.
    var memoryBytes: Int { memory.memoryBytes }

    init(memoryLimit: Int) {
        self.memoryLimit = memoryLimit
    }

    /// `true` when nothing is waiting to be read.
    var isEmpty: Bool { memory.isEmpty && (spill?.unreadBytes ?? 0) == 0 }

    /// Bytes waiting on disk.
    var spilledBytes: Int64 { spill?.unreadBytes ?? 0 }

    /// Appends a chunk: to memory while there is room and nothing is on disk, otherwise to disk
    /// when `mayUseDisk` (the caller can not pause the sender); in memory regardless otherwise.
    ///
    /// Takes `Data` as URLSession delivers it, so bytes bound for the disk are copied once.
    mutating func append(_ data: Data, mayUseDisk: Bool) throws {
        let fitsInMemory = memoryBytes + data.count <= memoryLimit || memoryBytes == 0
        if mayUseDisk, spilledBytes > 0 || !fitsInMemory {
            if spill == nil { spill = try SpillFile() }
            try spill?.write(data)
            return
        }
        memory.append(ArraySlice(data))
    }

    /// Takes the oldest bytes, or `nil` when empty.
    mutating func take() throws -> ArraySlice<UInt8>? {
        if let chunk = memory.popFirst() { return chunk }
        guard let spill, spill.unreadBytes > 0 else { return nil }
        return try spill.read(upTo: Self.readChunkBytes)
    }

    /// Drops everything (after a failure); the spill file is closed.
    mutating func removeAll() {
        memory.removeAll()
        spill = nil
    }
}

/// An unlinked temporary file used as a FIFO: appended at the end, read from the front.
/// Confined to the lock of the ``ResponseBodyBuffer`` that owns it.
///
/// Appends are staged in memory and written in blocks of ``stagingBytes``: URLSession's delegate
/// callbacks should keep pace with the network, since libcurl waits for them (``InlineDelegateQueue``);
/// one system call per small chunk was slow enough to fall far behind (while the delegate queue was
/// unbounded, its backlog reached hundreds of MiB).
private final class SpillFile {
    static let stagingBytes = 1 << 20
    private let descriptor: Int32
    private var readOffset: Int64 = 0
    private var writeOffset: Int64 = 0
    private var staged: [UInt8] = []

    var unreadBytes: Int64 { writeOffset + Int64(staged.count) - readOffset }

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/switchyard-urlsession-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw SpillError(operation: "create", code: errno) }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    func write(_ data: Data) throws {
        if staged.isEmpty { staged.reserveCapacity(Self.stagingBytes) }
        data.withUnsafeBytes { staged.append(contentsOf: $0) }
        if staged.count >= Self.stagingBytes { try flush() }
    }

    /// Writes the staged bytes to the end of the file.
    private func flush() throws {
        guard !staged.isEmpty else { return }
        try staged.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let written = pwrite(
                    descriptor, buffer.baseAddress! + done, buffer.count - done,
                    off_t(writeOffset) + off_t(done))
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { throw SpillError(operation: "write", code: errno) }
                done += written
            }
        }
        writeOffset += Int64(staged.count)
        staged.removeAll(keepingCapacity: true)
    }

    func read(upTo limit: Int) throws -> ArraySlice<UInt8> {
        if readOffset == writeOffset { try flush() }  // the file is drained: what is left is staged
        let count = Int(min(Int64(limit), writeOffset - readOffset))
        var bytes = [UInt8](repeating: 0, count: count)
        try bytes.withUnsafeMutableBytes { buffer in
            var done = 0
            while done < count {
                let got = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(readOffset) + off_t(done))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { throw SpillError(operation: "read", code: errno) }
                done += got
            }
        }
        readOffset += Int64(count)
        if readOffset == writeOffset {
            // Drained: start over at the beginning and give the disk space back.
            readOffset = 0
            writeOffset = 0
            _ = ftruncate(descriptor, 0)
        }
        return bytes[...]
    }
}

/// A failure of the temporary file that holds response bytes nobody has read yet.
struct SpillError: Error, CustomStringConvertible {
    let operation: String
    let code: Int32
    var description: String { "could not \(operation) the temporary body file (errno \(code))" }
}
