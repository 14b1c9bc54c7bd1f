public import Foundation
import SwitchyardCore
import Synchronization

/// Cookies in one JSON file that several processes may share.
///
/// Every change takes an exclusive lock on `FILE.lock` (`flock`), reads the file, applies the change
/// and replaces the file atomically (a new file renamed over the old one), so a reader never sees a
/// half-written file and two processes never lose each other's cookies. Reads reuse the last loaded
/// contents until the file changes (one `stat` per read).
public final class DiskCookieStore: CookieStore {
    /// The file.
    public let url: URL
    private let lockPath: String
    private let cached = Mutex<(version: [Int64]?, partitions: [String: [Cookie]])>((nil, [:]))

    /// The file's content.
    private struct Contents: Codable {
        var format = 1
        var partitions: [String: [Cookie]] = [:]
    }

    /// Creates a store over `url` (created on the first change; its directory must exist).
    /// - Parameter url: The file.
    public init(url: URL) {
        self.url = url
        self.lockPath = url.path + ".lock"
    }

    /// The cookies of `partition` as the file holds them now.
    /// - Parameter partition: The partition.
    /// - Returns: Its cookies.
    /// - Throws: When the file exists but cannot be read or is not a cookie file.
    public func cookies(in partition: String) throws -> [Cookie] {
        let version = FileDescriptor.version(of: url.path)
        if let hit = cached.withLock({ $0.version == version && version != nil ? $0.partitions[partition] ?? [] : nil }) {
            return hit
        }
        let contents = try read()
        cached.withLock { $0 = (version, contents.partitions) }
        return contents.partitions[partition] ?? []
    }

    /// Applies `change` to the file's latest contents under the lock and writes the result.
    /// - Parameters:
    ///   - partition: The partition.
    ///   - change: The edit.
    /// - Throws: When the file cannot be locked, read or written.
    public func update(_ partition: String, _ change: (inout [Cookie]) -> Void) throws {
        try locked { contents in
            change(&contents.partitions[partition, default: []])
            if contents.partitions[partition]?.isEmpty == true { contents.partitions[partition] = nil }
        }
    }

    /// Removes the cookies of `partition` from the file.
    /// - Parameter partition: The partition.
    /// - Throws: When the file cannot be locked, read or written.
    public func removeAll(in partition: String) throws {
        try locked { $0.partitions[partition] = nil }
    }

    /// Removes every cookie from the file.
    /// - Throws: When the file cannot be locked or written.
    public func removeAll() throws {
        try locked { $0.partitions.removeAll() }
    }

    private func locked(_ change: (inout Contents) -> Void) throws {
        let lock = try FileDescriptor.writing(lockPath, truncating: false)
        defer { lock.close() }
        try lock.lockExclusively()
        var contents = try read()
        change(&contents)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(contents).write(to: url, options: .atomic)
        cached.withLock { $0 = (FileDescriptor.version(of: url.path), contents.partitions) }
    }

    private func read() throws -> Contents {
        guard FileManager.default.fileExists(atPath: url.path) else { return Contents() }
        let data = try Data(contentsOf: url)
        guard !data.isEmpty else { return Contents() }
        do {
            return try JSONDecoder().decode(Contents.self, from: data)
        } catch {
            throw SwitchyardError.invalidRequest(
                "'\(url.path)' is not a Switchyard cookie file (\(error)); move it away or choose another file.")
        }
    }
}
