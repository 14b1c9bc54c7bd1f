import CMalloc
import Foundation

/// The process's resident memory, heap in use, open file descriptors and threads at one moment
/// (Linux: from `/proc/self` and the C library's allocator; 0 where unavailable).
public struct SoakProcessFigures: Sendable, Hashable {
    /// Resident memory in bytes.
    public var residentBytes: Int
    /// Bytes the program has allocated from the C allocator and not freed (glibc's `mallinfo2`; 0
    /// elsewhere). Unlike ``residentBytes`` it leaves out freed memory the allocator keeps for reuse,
    /// so a leak grows it and fragmentation does not.
    public var heapBytesInUse: Int
    /// Open file descriptors.
    public var openFileDescriptors: Int
    /// Threads.
    public var threads: Int

    /// The figures now.
    public static func now() -> Self {
        Self(
            residentBytes: residentBytes(), heapBytesInUse: heapBytesInUse(),
            openFileDescriptors: openFileDescriptors(), threads: threads())
    }

    /// Resident memory in bytes, from `/proc/self/statm`.
    public static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Bytes allocated and not freed, from the C allocator (0 where it does not say, and under a
    /// sanitizer, whose own allocator glibc's figures do not see).
    public static func heapBytesInUse() -> Int { Int(cmalloc_bytes_in_use()) }

    /// Asks the C allocator to give free memory back to the system (glibc's `malloc_trim`): resident
    /// memory read afterwards is what the program holds, not what the allocator kept for reuse.
    public static func releaseFreeHeapMemory() { cmalloc_release_free_memory() }

    /// Open file descriptors, from the entries of `/proc/self/fd` (the one used to list them excluded).
    public static func openFileDescriptors() -> Int {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return 0 }
        return max(0, entries.count - 1)
    }

    /// Threads, from `/proc/self/status`.
    public static func threads() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("Threads:") {
            return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        return 0
    }
}
