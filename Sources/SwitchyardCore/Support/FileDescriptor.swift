#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file, read or written with plain POSIX calls: transfers stream through a fixed-size
/// buffer, so a file of any size costs the same memory. Not shared between tasks; closed by
/// ``close()`` or on deinit.
package final class FileDescriptor {
    /// Size of the pieces files are read in.
    package static let readSize = 64 * 1024

    private var descriptor: Int32
    /// The path it was opened with, for messages.
    package let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close() }

    /// Opens `path` for reading.
    package static func reading(_ path: String) throws(SwitchyardError) -> FileDescriptor {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .invalidRequest("Cannot open '\(path)' for reading: \(errorText()).") }
        return FileDescriptor(descriptor: descriptor, path: path)
    }

    /// Opens (creating if needed) `path` for writing at its end, or empty when `truncating`.
    package static func writing(_ path: String, truncating: Bool) throws(SwitchyardError) -> FileDescriptor {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (truncating ? O_TRUNC : O_APPEND)
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else { throw .invalidRequest("Cannot open '\(path)' for writing: \(errorText()).") }
        return FileDescriptor(descriptor: descriptor, path: path)
    }

    /// The size of the file at `path`, or `nil` if there is no such file.
    package static func size(of path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    /// Reads up to ``readSize`` bytes; an empty result is the end of the file.
    package func read() throws(SwitchyardError) -> [UInt8] {
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

    /// Writes all of `bytes`.
    package func write(_ bytes: ArraySlice<UInt8>) throws(SwitchyardError) {
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

    /// Flushes the file's data to the storage device.
    package func synchronize() throws(SwitchyardError) {
        guard fsync(descriptor) == 0 else { throw .invalidRequest("Cannot flush '\(path)' to disk: \(Self.errorText()).") }
    }

    /// Waits for an exclusive advisory lock on the file (`flock`), shared with every process that
    /// locks the same file; released by ``close()``.
    package func lockExclusively() throws(SwitchyardError) {
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .invalidRequest("Cannot lock '\(path)': \(Self.errorText()).") }
        }
    }

    /// What identifies the file's current content for a reader that caches it: device, inode, size
    /// and modification time of `path` (a rename or a write changes it), or `nil` if there is no file.
    package static func version(of path: String) -> [Int64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        return [Int64(info.st_dev), Int64(info.st_ino), Int64(info.st_size), Int64(modified.tv_sec), Int64(modified.tv_nsec)]
    }

    /// Closes the file; later calls do nothing.
    package func close() {
        guard descriptor >= 0 else { return }
        _ = systemClose(descriptor)
        descriptor = -1
    }

    /// Renames `from` to `to` atomically (same file system), replacing `to`.
    package static func rename(_ from: String, to: String) throws(SwitchyardError) {
        guard systemRename(from, to) == 0 else {
            throw .invalidRequest("Cannot rename '\(from)' to '\(to)': \(errorText()).")
        }
    }

    /// Removes `path` if it exists.
    package static func remove(_ path: String) {
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
