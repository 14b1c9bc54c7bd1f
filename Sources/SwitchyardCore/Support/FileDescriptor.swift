#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file, read or written with plain POSIX calls (`open`, `read`, `write`, `fsync`, `flock`),
/// without Foundation: what the built-in plugins stream bodies, downloads and caches through, for
/// any plugin to use the same way.
///
/// Reading goes in pieces of ``readSize`` bytes, so a file of any size costs the same memory.
/// Interrupted system calls (`EINTR`) are retried; every other failure is thrown as
/// ``SwitchyardError/invalidRequest(_:)`` with the path and the system's error text.
///
/// ```swift
/// let file = try FileDescriptor.writing(path, truncating: true)
/// defer { file.close() }
/// try file.write(Array("hello".utf8)[...])
/// try file.synchronize()
/// ```
///
/// The object owns the descriptor: ``close()`` closes it (later calls do nothing), and so does
/// deinit. It is not `Sendable`: use it from one task at a time. Files are opened with
/// `O_CLOEXEC`, so a child process does not inherit them.
public final class FileDescriptor {
    /// The most bytes one ``read()`` returns: 64 KiB.
    public static let readSize = 64 * 1024

    private var descriptor: Int32
    /// The path it was opened with, for messages.
    package let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close() }

    /// Opens a file for reading.
    /// - Parameter path: The file's path.
    /// - Returns: The open file, positioned at its start.
    /// - Throws: ``SwitchyardError/invalidRequest(_:)`` when the file cannot be opened.
    public static func reading(_ path: String) throws(SwitchyardError) -> FileDescriptor {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .invalidRequest("Cannot open '\(path)' for reading: \(errorText()).") }
        return FileDescriptor(descriptor: descriptor, path: path)
    }

    /// Opens a file for writing, creating it (mode `0644`) if there is none.
    /// - Parameters:
    ///   - path: The file's path.
    ///   - truncating: `true` to empty the file first; `false` to append every write at its end.
    /// - Returns: The open file.
    /// - Throws: ``SwitchyardError/invalidRequest(_:)`` when the file cannot be opened.
    public static func writing(_ path: String, truncating: Bool) throws(SwitchyardError) -> FileDescriptor {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (truncating ? O_TRUNC : O_APPEND)
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else { throw .invalidRequest("Cannot open '\(path)' for writing: \(errorText()).") }
        return FileDescriptor(descriptor: descriptor, path: path)
    }

    /// The size of a file, as `stat` reports it.
    /// - Parameter path: The file's path.
    /// - Returns: The size in bytes, or `nil` if there is no such file (or it cannot be examined).
    public static func size(of path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    /// Reads the next piece of the file.
    /// - Returns: Up to ``readSize`` bytes; an empty array at the end of the file.
    /// - Throws: ``SwitchyardError/invalidRequest(_:)`` when reading fails.
    public func read() throws(SwitchyardError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: Self.readSize)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count >= 0 {
                buffer.removeSubrange(count...)
                return buffer
            }
            guard errno == EINTR else { throw .invalidRequest("Cannot read '\(path)': \(Self.errorText()).") }
        }
    }

    /// Writes bytes, all of them: a short write is continued until every byte is written.
    /// - Parameter bytes: The bytes to write.
    /// - Throws: ``SwitchyardError/invalidRequest(_:)`` when writing fails; part of `bytes` may
    ///   have been written.
    public func write(_ bytes: ArraySlice<UInt8>) throws(SwitchyardError) {
        var failure: SwitchyardError?
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = systemWrite(descriptor, base + offset, raw.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    failure = .invalidRequest("Cannot write to '\(path)': \(Self.errorText()).")
                    return
                }
            }
        }
        if let failure { throw failure }
    }

    /// Flushes the file's data to the storage device (`fsync`), so that it survives a crash.
    /// - Throws: ``SwitchyardError/invalidRequest(_:)`` when flushing fails.
    public func synchronize() throws(SwitchyardError) {
        guard fsync(descriptor) == 0 else { throw .invalidRequest("Cannot flush '\(path)' to disk: \(Self.errorText()).") }
    }

    /// Waits for an exclusive advisory lock on the file (`flock`), shared with every process that
    /// locks the same file; released by ``close()``.
    ///
    /// The lock is advisory: it keeps out only those who also lock the file. It blocks the calling
    /// thread while another holder has it.
    /// - Throws: ``SwitchyardError/invalidRequest(_:)`` when the file cannot be locked.
    public func lockExclusively() throws(SwitchyardError) {
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .invalidRequest("Cannot lock '\(path)': \(Self.errorText()).") }
        }
    }

    /// What identifies the file's current content for a reader that caches it: device, inode, size
    /// and modification time of `path` (a rename or a write changes it), or `nil` if there is no file.
    ///
    /// Compare two versions for equality only; the parts have no other meaning.
    /// - Parameter path: The file's path.
    /// - Returns: The version, or `nil` if there is no such file (or it cannot be examined).
    public static func version(of path: String) -> [Int64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        return [Int64(info.st_dev), Int64(info.st_ino), Int64(info.st_size), Int64(modified.tv_sec), Int64(modified.tv_nsec)]
    }

    /// Closes the file, releasing a lock taken with ``lockExclusively()``; later calls do nothing.
    public func close() {
        guard descriptor >= 0 else { return }
        _ = systemClose(descriptor)
        descriptor = -1
    }

    /// Renames a file atomically, replacing any file at the new path (`rename`).
    /// - Parameters:
    ///   - from: The file's current path.
    ///   - to: Its new path, on the same file system.
    /// - Throws: ``SwitchyardError/invalidRequest(_:)`` when the file cannot be renamed.
    public static func rename(_ from: String, to: String) throws(SwitchyardError) {
        guard systemRename(from, to) == 0 else {
            throw .invalidRequest("Cannot rename '\(from)' to '\(to)': \(errorText()).")
        }
    }

    /// Removes a file if it exists (`unlink`); a missing file or a failure is ignored.
    /// - Parameter path: The file's path.
    public static func remove(_ path: String) {
        _ = unlink(path)
    }

    /// The text of the current `errno`.
    package static func errorText() -> String {
        String(cString: strerror(errno))
    }
}

// Free functions over the system calls, so that this type's own `read`, `write`, `close` and
// `rename` members do not shadow them.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

private func systemClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}

private func systemRename(_ from: String, _ to: String) -> Int32 {
    rename(from, to)
}
