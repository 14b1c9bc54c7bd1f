import Foundation
import Histogram
import Switchyard
import SwitchyardJSON

/// One cell of the `yard bench` matrix and what it measured.
struct BenchResult {
    let transport: String
    let chain: String
    let concurrency: Int
    let payload: String
    let url: String
    let run: LoadLoop.Result
    let cpu: Duration
    /// Context switches (voluntary and involuntary) of the whole process during the measured run.
    let contextSwitches: Int
    let peakResidentBytes: Int
    let threads: Int

    var cpuMillisecondsPer1000: Double {
        let requests = run.succeeded + run.errors
        return requests == 0 ? 0 : cpu.milliseconds * 1_000 / Double(requests)
    }

    /// CPU microseconds per request of the measured run (warm-up excluded).
    var cpuMicrosecondsPerRequest: Double { cpuMillisecondsPer1000 }

    /// Context switches per request of the measured run (warm-up excluded).
    var contextSwitchesPerRequest: Double {
        let requests = run.succeeded + run.errors
        return requests == 0 ? 0 : Double(contextSwitches) / Double(requests)
    }

    private func ms(_ percentile: Double) -> Double { Double(run.microseconds(at: percentile)) / 1_000 }

    /// The `--json` object of this cell (keys in the documented order).
    var json: JSONValue {
        .object([
            "transport": .string(transport), "chain": .string(chain), "concurrency": .integer(Int64(concurrency)),
            "payload": .string(payload), "requests": .integer(Int64(run.succeeded + run.errors)),
            "errors": .integer(Int64(run.errors)), "rps": .rounded(run.requestsPerSecond),
            "p50_ms": .rounded(ms(50)), "p90_ms": .rounded(ms(90)), "p99_ms": .rounded(ms(99)),
            "max_ms": .rounded(Double(run.succeeded == 0 ? 0 : run.latencies.max) / 1_000),
            "cpu_ms_per_1k": .rounded(cpuMillisecondsPer1000),
            "peak_rss_mb": .rounded(Double(peakResidentBytes) / 1_048_576), "threads": .integer(Int64(threads))
        ])
    }

    /// The `RESULT` line the reference clients of `Benchmarks/Reference` print, followed by the process's CPU
    /// microseconds and context switches per request over the measured run (`cpu_us`, `csw`).
    var resultLine: String {
        let client = chain == "bare" ? "yard\(transport)" : "yard\(transport)\(chain)"
        return "RESULT client=\(client) url=\(url) c=\(concurrency) ok=\(run.succeeded) errors=\(run.errors) "
            + String(format: "elapsed_s=%.3f rps=%.1f ", run.seconds, run.requestsPerSecond)
            + String(format: "p50_us=%.1f p99_us=%.1f ", Double(run.microseconds(at: 50)), Double(run.microseconds(at: 99)))
            + "bytes=\(run.bytes) " + String(format: "mb_s=%.1f ", run.megabytesPerSecond)
            + String(format: "cpu_us=%.1f csw=%.2f", cpuMicrosecondsPerRequest, contextSwitchesPerRequest)
    }

    static let columns = [
        "transport", "chain", "c", "payload", "requests", "errors", "req/s", "p50 ms", "p90 ms",
        "p99 ms", "max ms", "cpu ms/1k", "peak RSS MiB", "threads"
    ]

    var cells: [String] {
        [
            transport, chain, "\(concurrency)", payload, "\(run.succeeded + run.errors)", "\(run.errors)",
            String(format: "%.0f", run.requestsPerSecond), String(format: "%.3f", ms(50)), String(format: "%.3f", ms(90)),
            String(format: "%.3f", ms(99)), String(format: "%.3f", Double(run.succeeded == 0 ? 0 : run.latencies.max) / 1_000),
            String(format: "%.0f", cpuMillisecondsPer1000), String(format: "%.1f", Double(peakResidentBytes) / 1_048_576),
            "\(threads)"
        ]
    }

    /// An aligned table of results.
    static func table(_ results: [BenchResult]) -> String {
        let rows = [columns] + results.map(\.cells)
        let widths = columns.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column < 2 || column == 3 ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// The results as CSV with a header line.
    static func csv(_ results: [BenchResult]) -> String {
        let header = "transport,chain,concurrency,payload,requests,errors,rps,p50_ms,p90_ms,p99_ms,max_ms,cpu_ms_per_1k,peak_rss_mb,threads"
        return ([header] + results.map { $0.cells.joined(separator: ",") }).joined(separator: "\n") + "\n"
    }
}
