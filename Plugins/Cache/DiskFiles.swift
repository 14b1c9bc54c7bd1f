#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX file operations the disk store needs, each retrying on `EINTR`.
enum DiskFiles {
    /// A cache file found by listing the directory.
    struct Entry {
        var path: String
        var size: Int
        var modified: Double
    }

    /// Creates `path` and its parents.
    static func makeDirectory(_ path: String) throws(DiskCacheStoreError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            prefix += "/" + part
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                let reason = String(cString: strerror(errno))
                throw DiskCacheStoreError(description: "Cannot create the cache directory \(prefix): \(reason)")
            }
        }
    }

    /// The whole file at `path`, after touching its modification time (the store's recency), or `nil`.
    static func readAndTouch(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size >= 0, info.st_size < Int.max else { return nil }
        let size = Int(info.st_size)
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            guard let base = buffer.baseAddress else { return }
            while count < size {
                let result = read(fd, base + count, size - count)
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else { break }
                count += result
            }
        }
        guard bytes.count == size else { return nil }
        touch(fd)
        return bytes
    }

    /// Sets the file's access and modification times to now, to the nanosecond (a file system's own
    /// `futimens(fd, nil)` may use a coarse clock, which would make recent uses tie).
    static func touch(_ fd: Int32) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var times = (now, now)
        _ = withUnsafePointer(to: &times) { pointer in
            pointer.withMemoryRebound(to: timespec.self, capacity: 2) { futimens(fd, $0) }
        }
    }

    /// Writes all of `bytes` to `fd`.
    static func append(_ fd: Int32, _ bytes: some Collection<UInt8>) -> Bool {
        bytes.withContiguousStorageIfAvailable { buffer in writeAll(fd, buffer) } ?? writeAll(fd, Array(bytes))
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { writeAll(fd, $0) }
    }

    private static func writeAll(_ fd: Int32, _ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        var offset = 0
        while offset < buffer.count {
            let result = write(fd, base + offset, buffer.count - offset)
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { return false }
            offset += result
        }
        return true
    }

    /// The names in `directory` (without `.` and `..`).
    static func children(of directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Every entry file under `directory` (one folder per partition; temporary files excluded).
    static func entries(in directory: String) -> [Entry] {
        var entries: [Entry] = []
        for folder in children(of: directory) where !folder.hasPrefix(".") {
            let folderPath = directory + "/" + folder
            for name in children(of: folderPath) {
                let path = folderPath + "/" + name
                var info = stat()
                guard stat(path, &info) == 0 else { continue }
                #if canImport(Darwin)
                let time = info.st_mtimespec
                #else
                let time = info.st_mtim
                #endif
                let modified = Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
                entries.append(Entry(path: path, size: Int(info.st_size), modified: modified))
            }
        }
        return entries
    }

    /// Deletes the temporary files in `directory` not modified for `age` seconds.
    static func removeTemporaryFiles(in directory: String, olderThan age: Double) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        for name in children(of: directory) where name.hasPrefix(".tmp-") {
            let path = directory + "/" + name
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            #if canImport(Darwin)
            let modified = Double(info.st_mtimespec.tv_sec)
            #else
            let modified = Double(info.st_mtim.tv_sec)
            #endif
            if Double(now.tv_sec) - modified > age { unlink(path) }
        }
    }

    /// Removes a partition folder and its files.
    static func removeTree(_ path: String) {
        for name in children(of: path) { unlink(path + "/" + name) }
        rmdir(path)
    }
}
