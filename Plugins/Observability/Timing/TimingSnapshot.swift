import Foundation
import SwitchyardCore

/// Aggregated timings of every endpoint at one moment: a value to inspect, print or export.
///
/// ```swift
/// let snapshot = stats.snapshot()
/// print(snapshot.table)
/// try Data(snapshot.json().utf8).write(to: url)
/// ```
public struct TimingSnapshot: Sendable, Equatable, Codable {
    /// One endpoint's figures.
    public struct Endpoint: Sendable, Equatable, Codable {
        /// E.g. `GET`.
        public var method: String
        /// E.g. `api.example.com` (port included when not the default).
        public var host: String
        /// The path template, e.g. `/users/{id}`.
        public var path: String
        /// Calls recorded.
        public var count: Int
        /// Calls that failed (threw, or ended with a status of 500 or more).
        public var errors: Int
        /// Calls that shared another call's exchange (coalesced followers, see `CoalescingPolicy`);
        /// they are also in ``count``, with the shared exchange's transport phases.
        public var coalesced: Int
        /// Per phase, in a fixed order: `call`, `queued`, `dns`, `connect`, `tls`, `ttfb`, `transfer`,
        /// `backoff`, `decoding`, then `interceptor:<name>` for each interceptor seen.
        public var phases: [Phase]
    }

    /// Percentiles of one phase, in microseconds.
    public struct Phase: Sendable, Equatable, Codable {
        /// The phase name.
        public var name: String
        /// Calls that reported this phase.
        public var count: Int
        /// Median.
        public var p50: UInt64
        /// 90th percentile.
        public var p90: UInt64
        /// 99th percentile.
        public var p99: UInt64
        /// Largest.
        public var max: UInt64
    }

    /// The endpoints, sorted by method, host and path.
    public var endpoints: [Endpoint]

    /// The snapshot as JSON with stable, sorted keys (microseconds for durations).
    /// - Returns: The JSON text.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// An aligned table: one row per endpoint and phase, durations in milliseconds.
    public var table: String {
        var rows: [[String]] = [["endpoint", "phase", "count", "errors", "p50 ms", "p90 ms", "p99 ms", "max ms"]]
        for endpoint in endpoints {
            for (index, phase) in endpoint.phases.enumerated() {
                rows.append([
                    index == 0 ? "\(endpoint.method) \(endpoint.host)\(endpoint.path)" : "",
                    phase.name, "\(phase.count)", index == 0 ? "\(endpoint.errors)" : "",
                    Self.ms(phase.p50), Self.ms(phase.p90), Self.ms(phase.p99), Self.ms(phase.max)
                ])
            }
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column < 2 ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    private static func ms(_ microseconds: UInt64) -> String {
        String(format: "%.2f", Double(microseconds) / 1000)
    }
}
