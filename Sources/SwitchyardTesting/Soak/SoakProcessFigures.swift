import Foundation

/// The process's resident memory, open file descriptors and threads at one moment (Linux: from
/// `/proc/self`; 0 where unavailable).
public struct SoakProcessFigures: Sendable, Hashable {
    /// Resident memory in bytes.
    public var residentBytes: Int
    /// Open file descriptors.
    public var openFileDescriptors: Int
    /// Threads.
    public var threads: Int

    /// The figures now.
    public static func now() -> Self {
        Self(residentBytes: residentBytes(), openFileDescriptors: openFileDescriptors(), threads: threads())
    }

    /// Resident memory in bytes, from `/proc/self/statm`.
    public static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

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
