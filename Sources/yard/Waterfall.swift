import Foundation
import HTTPTypes
import Switchyard

extension ExchangeOutcome {
    /// `-v`: the exchange's events on a time line, then its phase timings as bars, on standard error.
    ///
    /// ```
    ///     0.0 ms  started     GET /flaky/a/2?token=<redacted>
    ///     2.1 ms  retrying    attempt 1 failed (status 503); next in 87 ms
    ///    92.4 ms  succeeded   status 200
    /// ttfb      ██████████████████████████████████▌       91.8 ms
    /// total     ████████████████████████████████████████  92.4 ms
    /// ```
    func printWaterfall() {
        var lines: [String] = []
        for event in events {
            let at = Self.milliseconds(startedAt.duration(to: event.at)).leftPadded(to: 9)
            let kind = event.kind.name.rightPadded(to: 11)
            let what =
                event.kind.name == "started"
                ? "\(event.request.method) \(QueryRedaction.standard.redact(event.request.path ?? "/"))" : event.kind.detail
            lines.append("\(at)  \(kind) \(what)")
        }
        let timings = context?.timings ?? TransferTimings()
        let total = timings.total ?? elapsed
        let phases: [(String, Duration?)] = [
            ("dns", timings.dns), ("connect", timings.connect), ("tls", timings.tls),
            ("ttfb", timings.firstByte), ("total", total)
        ]
        for (name, value) in phases {
            guard let value else { continue }
            lines.append("\(name.rightPadded(to: 9)) \(Self.bar(value, of: total).rightPadded(to: 41)) \(Self.milliseconds(value))")
        }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    private static func milliseconds(_ duration: Duration) -> String {
        String(format: "%.1f ms", duration.milliseconds)
    }

    /// A bar of up to 40 cells, in eighths, for `value` relative to `total`.
    private static func bar(_ value: Duration, of total: Duration) -> String {
        guard total > .zero else { return "" }
        let eighths = Int((min(1, value / total) * 320).rounded())
        let partial = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"][eighths % 8]
        return String(repeating: "█", count: eighths / 8) + partial
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }

    fileprivate func rightPadded(to width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}
