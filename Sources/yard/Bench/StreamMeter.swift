import Foundation
import Switchyard

/// Wall clock and the process's own CPU over the measured stretch of `yard bench events` and `yard
/// bench ws`, printed as one JSON line with the keys of `Benchmarks/Reference`'s stream clients.
struct StreamMeter {
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private let cpuStart: (user: Duration, system: Duration)

    /// Starts measuring now.
    init() {
        cpuStart = ProcessStats.cpuTimes
        start = clock.now
    }

    /// The JSON line of the stretch since ``init()``: `client`, `count`, `elapsed_us`, `per_s`, and
    /// the process's `user_us` and `sys_us` over the stretch, then `extra` (values already JSON).
    func line(client: String, count: Int, extra: [(String, String)] = []) -> String {
        let elapsed = max(start.duration(to: clock.now).milliseconds * 1_000, 1)
        let cpu = ProcessStats.cpuTimes
        func micros(_ duration: Duration) -> String { String(Int((duration.milliseconds * 1_000).rounded())) }
        let members =
            [
                ("client", "\"\(client)\""), ("count", "\(count)"), ("elapsed_us", "\(Int(elapsed.rounded()))"),
                ("per_s", String(format: "%.1f", Double(count) * 1e6 / elapsed)),
                ("user_us", micros(cpu.user - cpuStart.user)), ("sys_us", micros(cpu.system - cpuStart.system))
            ] + extra
        return "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}
