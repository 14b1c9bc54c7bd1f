import Crypto
import SwitchyardCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A cache store in a directory, bounded in bytes, that evicts the least recently used entries
/// first; several processes may share one directory.
///
/// ```swift
/// let store = try DiskCacheStore(directory: "/var/cache/myapp/http", maxBytes: 50 << 20)
/// let cache = HTTPCache(store: store)
/// ```
///
/// ### Layout and safety
///
/// Each record is one file, `<directory>/<partition digest>/<resource digest>`, in the format of
/// `DiskEntryFormat`: a SHA-256 over the header fields and body closes every entry, and an entry
/// whose digest does not match (a crash, a truncation, a flipped byte) is deleted on read and
/// treated as a miss. A body is written, as it streams, to a temporary file that is renamed over
/// the entry only when it is complete, so a reader (in this or another process) sees the old entry
/// or the new one, never half of one. Clearing a partition removes its folder.
///
/// ### Bounds across processes
///
/// Each hit touches the file's modification time: that is the recency eviction uses. A process
/// keeps an estimate of the directory's size; when a write takes it over ``maxBytes`` it lists the
/// directory (seeing the other processes' entries too) and deletes the least recently used files
/// until the directory fits. A hit costs one `open`, `read`, `futimens` and `close` and a SHA-256 of
/// the entry.
public final class DiskCacheStore: CacheStore {
    /// The default bound: 50 MiB.
    public static let defaultMaxBytes = 50 << 20

    /// Temporary files older than this (seconds) are left over from a process that crashed while
    /// writing; opening a store deletes them. A live writer's temporary file is far younger.
    public static let abandonedTemporaryAge = 3_600.0

    /// The directory.
    public let directory: String
    /// The most bytes the directory's entries may take.
    public let maxBytes: Int
    private let estimatedBytes: Atomic<Int>
    private let evicting = Lock(())
    private static let nextTemporary = Atomic<UInt64>(1)

    /// Opens (creating if needed) a cache directory.
    /// - Parameters:
    ///   - directory: The directory's path.
    ///   - maxBytes: The bound in bytes (default ``defaultMaxBytes``).
    /// - Throws: ``DiskCacheStoreError`` when the directory cannot be created.
    public init(directory: String, maxBytes: Int = DiskCacheStore.defaultMaxBytes) throws(DiskCacheStoreError) {
        self.directory = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
        self.maxBytes = maxBytes
        try DiskFiles.makeDirectory(self.directory)
        DiskFiles.removeTemporaryFiles(in: self.directory, olderThan: Self.abandonedTemporaryAge)
        self.estimatedBytes = Atomic(DiskFiles.entries(in: self.directory).reduce(0) { $0 + $1.size })
    }

    /// The bytes the directory's entries take now (listed, not estimated).
    public var totalBytes: Int { DiskFiles.entries(in: directory).reduce(0) { $0 + $1.size } }

    /// The record in the entry for `key`; a damaged entry is deleted and reads as `nil`.
    /// - Parameter key: The key.
    /// - Returns: The record, if any.
    public func record(for key: CacheKey) -> CacheRecord? {
        let path = self.path(for: key)
        guard let bytes = DiskFiles.readAndTouch(path) else { return nil }
        guard let record = DiskEntryFormat.decode(bytes) else {
            unlink(path)
            return nil
        }
        return record
    }

    /// Writes `record` as the entry for `key` (through a temporary file and a rename).
    /// - Parameters:
    ///   - record: The record.
    ///   - key: The key.
    public func store(_ record: CacheRecord, for key: CacheKey) {
        // A body another store streams is not here to write: the entry would be short.
        if case .response(let response) = record, response.streamedBody != nil { return removeRecord(for: key) }
        let prefix = DiskEntryFormat.prefix(record)
        guard let writer = DiskEntryWriter(store: self, key: key, prefix: prefix) else { return }
        if case .response(let response) = record {
            do { try writer.write(response.body[...]) } catch { return writer.abort() }
        }
        try? writer.commit()
    }

    /// A writer that streams the body into a temporary file and renames it into place on commit.
    /// - Parameters:
    ///   - response: The response, with an empty body.
    ///   - key: The key.
    /// - Returns: The writer, or `nil` when no temporary file can be created.
    public func makeWriter(for response: CachedResponse, key: CacheKey) -> (any CacheEntryWriter)? {
        DiskEntryWriter(store: self, key: key, prefix: DiskEntryFormat.prefix(.response(response)))
    }

    /// Deletes the entry for `key`.
    /// - Parameter key: The key.
    public func removeRecord(for key: CacheKey) {
        unlink(path(for: key))
    }

    /// Deletes every entry of `partition`.
    /// - Parameter partition: The partition.
    public func removeAll(partition: String) {
        DiskFiles.removeTree(directory + "/" + Self.digest(partition))
    }

    /// Deletes every entry.
    public func removeAll() {
        for folder in DiskFiles.children(of: directory) where !folder.hasPrefix(".") {
            DiskFiles.removeTree(directory + "/" + folder)
        }
        estimatedBytes.store(0, ordering: .relaxed)
    }

    // MARK: - Paths

    /// The entry's path.
    func path(for key: CacheKey) -> String {
        directory + "/" + Self.digest(key.partition) + "/" + Self.digest(key.resource)
    }

    /// A new temporary file's path, unique across processes.
    func temporaryPath() -> String {
        let number = Self.nextTemporary.add(1, ordering: .relaxed).oldValue
        return directory + "/.tmp-\(getpid())-\(number)-\(UInt32.random(in: 0...UInt32.max))"
    }

    private static func digest(_ text: String) -> String {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var result: [UInt8] = []
        result.reserveCapacity(32)
        for byte in SHA256.hash(data: Array(text.utf8)).prefix(16) {
            result.append(hex[Int(byte >> 4)])
            result.append(hex[Int(byte & 0xF)])
        }
        return String(decoding: result, as: UTF8.self)
    }

    // MARK: - Bounds

    /// An entry of `bytes` was committed: evicts when the estimate goes over the bound.
    func committed(bytes: Int) {
        let estimate = estimatedBytes.add(bytes, ordering: .relaxed).newValue
        guard estimate > maxBytes else { return }
        evicting.withLock { _ in
            var entries = DiskFiles.entries(in: directory)
            var total = entries.reduce(0) { $0 + $1.size }
            entries.sort { $0.modified < $1.modified }
            var index = 0
            while total > maxBytes, index < entries.count {
                if unlink(entries[index].path) == 0 { total -= entries[index].size }
                index += 1
            }
            estimatedBytes.store(total, ordering: .relaxed)
        }
    }
}

/// Why a ``DiskCacheStore`` could not open its directory.
public struct DiskCacheStoreError: Error, CustomStringConvertible {
    /// What went wrong, with the path and the system's reason.
    public let description: String
}
