import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's CPU time, peak memory and thread count, for `yard bench`.
enum ProcessStats {
    #if os(Linux)
    private static let this = RUSAGE_SELF.rawValue
    #else
    private static let this = RUSAGE_SELF
    #endif

    /// User + system CPU time used by the process so far.
    static var cpuTime: Duration {
        let (user, system) = cpuTimes
        return user + system
    }

    /// User and system CPU time used by the process so far, apart.
    static var cpuTimes: (user: Duration, system: Duration) {
        var usage = rusage()
        getrusage(this, &usage)
        func duration(_ time: timeval) -> Duration { .seconds(time.tv_sec) + .microseconds(time.tv_usec) }
        return (duration(usage.ru_utime), duration(usage.ru_stime))
    }

    /// Voluntary plus involuntary context switches of the process so far (all its threads).
    static var contextSwitches: Int {
        var usage = rusage()
        getrusage(this, &usage)
        return Int(usage.ru_nvcsw) + Int(usage.ru_nivcsw)
    }

    /// The largest resident set size of the process so far, in bytes.
    static var peakResidentBytes: Int {
        var usage = rusage()
        getrusage(this, &usage)
        #if os(Linux)
        return Int(usage.ru_maxrss) * 1024
        #else
        return Int(usage.ru_maxrss)
        #endif
    }

    /// The current resident set size in bytes (Linux: /proc/self/statm; elsewhere the peak).
    static var residentBytes: Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return peakResidentBytes }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return peakResidentBytes }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The number of threads of the process (Linux: the entries of /proc/self/task; 0 where unknown).
    ///
    /// Sampled while a benchmark runs, so it reads a directory rather than parsing text: the sampler
    /// should not be a cost the reference clients beside it do not pay.
    static var threadCount: Int {
        #if os(Linux)
        guard let directory = opendir("/proc/self/task") else { return 0 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            if entry.pointee.d_name.0 != CChar(UInt8(ascii: ".")) { count += 1 }  // not "." or ".."
        }
        return count
        #else
        return 0
        #endif
    }

    /// Raises the open-file limit to its hard maximum, so thousands of connections can be open.
    static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
