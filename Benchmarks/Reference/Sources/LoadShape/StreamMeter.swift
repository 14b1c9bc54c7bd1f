import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wall clock and the process's own CPU over one measured stretch of a streaming client (events or
/// messages), printed as the JSON line `Benchmarks/streams.py` reads — the same keys `yard bench
/// events` and `yard bench ws` print.
public struct StreamMeter {
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private let cpuStart: (user: Int, system: Int)

    /// Starts measuring now.
    public init() {
        cpuStart = Self.cpuMicroseconds()
        start = clock.now
    }

    /// The JSON line of what was measured since ``init()``: `client`, `count`, `elapsed_us`,
    /// `per_s`, and the process's `user_us` and `sys_us` over the stretch.
    /// - Parameters:
    ///   - client: The client's name.
    ///   - count: Events or messages handled in the stretch.
    ///   - extra: More members, already JSON (`"window":1`).
    /// - Returns: The line, without a newline.
    public func line(client: String, count: Int, extra: [(String, String)] = []) -> String {
        let (seconds, attoseconds) = start.duration(to: clock.now).components
        let elapsed = max(Int(seconds) * 1_000_000 + Int(attoseconds / 1_000_000_000_000), 1)
        let cpu = Self.cpuMicroseconds()
        let members =
            [
                ("client", "\"\(client)\""), ("count", "\(count)"), ("elapsed_us", "\(elapsed)"),
                ("per_s", String(format: "%.1f", Double(count) * 1e6 / Double(elapsed))),
                ("user_us", "\(cpu.user - cpuStart.user)"), ("sys_us", "\(cpu.system - cpuStart.system)")
            ] + extra
        return "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// The process's user and system CPU time so far, in microseconds.
    public static func cpuMicroseconds() -> (user: Int, system: Int) {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func micros(_ time: timeval) -> Int { Int(time.tv_sec) * 1_000_000 + Int(time.tv_usec) }
        return (micros(usage.ru_utime), micros(usage.ru_stime))
    }
}

/// Writes `message` to standard error and exits with `status`.
public func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}
