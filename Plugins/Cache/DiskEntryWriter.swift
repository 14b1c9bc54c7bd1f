import Crypto
import SwitchyardCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Streams one entry into a temporary file of a ``DiskCacheStore`` and renames it into place on
/// commit; aborted or dropped, it deletes the temporary file, so no partial entry is ever visible.
final class DiskEntryWriter: CacheEntryWriter {
    private struct State {
        var fd: Int32
        var hasher = SHA256()
        var bodyLength: UInt64 = 0
        var written: Int
    }

    private let store: DiskCacheStore
    private let key: CacheKey
    private let temporaryPath: String
    /// `nil` once committed or aborted.
    private let state: Lock<State?>

    /// Opens a temporary file and writes `prefix` (magic and header) to it; `nil` when that fails.
    init?(store: DiskCacheStore, key: CacheKey, prefix: [UInt8]) {
        self.store = store
        self.key = key
        self.temporaryPath = store.temporaryPath()
        let fd = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        guard DiskFiles.append(fd, prefix) else {
            close(fd)
            unlink(temporaryPath)
            return nil
        }
        var hasher = SHA256()
        hasher.update(data: prefix)
        self.state = Lock(State(fd: fd, hasher: hasher, written: prefix.count))
    }

    func write(_ chunk: ArraySlice<UInt8>) throws {
        let ok = state.withLock { state -> Bool in
            guard state != nil else { return false }
            guard let fd = state?.fd, DiskFiles.append(fd, chunk) else { return false }
            state?.hasher.update(data: chunk)
            state?.bodyLength += UInt64(chunk.count)
            state?.written += chunk.count
            return true
        }
        if !ok {
            abort()
            throw DiskCacheStoreError(description: "Cannot write the cache entry \(temporaryPath)")
        }
    }

    func commit() throws {
        guard var finished = state.withLock({ $0.take() }) else { return }
        let trailer = DiskEntryFormat.trailer(bodyLength: finished.bodyLength, hasher: &finished.hasher)
        let wrote = DiskFiles.append(finished.fd, trailer)
        DiskFiles.touch(finished.fd)
        close(finished.fd)
        let destination = store.path(for: key)
        guard wrote, Self.moveIntoPlace(temporaryPath, to: destination) else {
            unlink(temporaryPath)
            throw DiskCacheStoreError(description: "Cannot store the cache entry \(destination)")
        }
        store.committed(bytes: finished.written + trailer.count)
    }

    func abort() {
        guard let abandoned = state.withLock({ $0.take() }) else { return }
        close(abandoned.fd)
        unlink(temporaryPath)
    }

    deinit { abort() }

    /// Renames, creating the partition folder when it is missing (or was cleared meanwhile).
    private static func moveIntoPlace(_ source: String, to destination: String) -> Bool {
        if rename(source, destination) == 0 { return true }
        guard errno == ENOENT, let slash = destination.lastIndex(of: "/") else { return false }
        mkdir(String(destination[..<slash]), 0o755)
        return rename(source, destination) == 0
    }
}
