import Foundation
import SwitchyardTestServer

/// What a ``SoakRun`` saw: how each request ended, the three figures that must be zero (hung,
/// duplicated, corrupted), and the process's figures.
public struct SoakReport: Sendable {
    /// Memory after warm-up, at the middle and at the end of the run (before the client shuts down).
    public struct Memory: Sendable, Hashable {
        /// One figure at three points of the run.
        public struct Series: Sendable, Hashable {
            /// After 10 % of the requests, with none in flight.
            public var start: Int
            /// After 50 %, with none in flight.
            public var middle: Int
            /// After 100 %, before the client shuts down.
            public var end: Int

            /// Creates a series.
            public init(start: Int, middle: Int, end: Int) {
                self.start = start
                self.middle = middle
                self.end = end
            }

            /// The largest change from ``start``, as a fraction of it (0.05 for 5 %).
            public var drift: Double {
                guard start > 0 else { return 0 }
                return Double(max(abs(middle - start), abs(end - start))) / Double(start)
            }
        }

        /// Resident memory.
        public var resident: Series
        /// Bytes allocated and not freed (``SoakProcessFigures/heapBytesInUse``; all 0 where the C
        /// allocator does not say): grows with a leak, not with fragmentation.
        public var heapInUse: Series
        /// Resident memory at the end once the allocator gave its free memory back
        /// (``SoakProcessFigures/releaseFreeHeapMemory()``).
        public var residentAfterRelease: Int
    }

    /// The transport's name, as the caller gave it.
    public var transport: String
    /// The run's configuration.
    public var configuration: SoakConfiguration
    /// Logical requests sent as `GET`.
    public var gets = 0
    /// Logical requests sent as `POST` (without `Idempotency-Key`).
    public var posts = 0
    /// Requests that ended with a response, whatever its status (``completedByStatus``).
    public var completed = 0
    /// ``completed`` by status code (`503`s are the bursts the retries did not get through).
    public var completedByStatus: [Int: Int] = [:]
    /// `200` responses whose body was checked byte for byte against the one asked for, and matched.
    public var verified = 0
    /// Requests that ended with an error, by `SwitchyardError.Kind` raw value (`other` for an error
    /// that is not a `SwitchyardError`).
    public var failedByKind: [String: Int] = [:]
    /// The first error message of each kind in ``failedByKind``.
    public var firstErrors: [String: String] = [:]
    /// Requests that had not ended by their deadline plus the grace period (must be 0).
    public var hung = 0
    /// `POST`s the server read more than once (must be 0).
    public var duplicatedPosts = 0
    /// `GET`s the server read more than once (retries: expected under faults).
    public var repeatedGets = 0
    /// Arrivals at the server of requests whose call had already ended (counted in ``duplicatedPosts`` for `POST`s).
    public var lateArrivals = 0
    /// `200` responses delivered as complete whose body, digest or echoed request digest did not match (must be 0).
    public var corrupted = 0
    /// Ids and reasons of the first hung, duplicated and corrupted requests, for reproducing them.
    public var samples: [String] = []
    /// Faults the server injected, by kind (retries draw again, so more than one per request is possible).
    public var injectedFaults: [String: Int] = [:]
    /// Wall time of the measured run.
    public var duration: Duration = .zero
    /// Resident memory over the run (`nil` without ``SoakConfiguration/measuresProcess``).
    public var memory: Memory?
    /// Descriptors and threads before the measured client was created (after the warm-up client shut down).
    public var baseline: SoakProcessFigures?
    /// Descriptors and threads after the measured client shut down.
    public var afterShutdown: SoakProcessFigures?
    /// ``baseline``'s descriptors by kind.
    public var baselineDescriptors: SoakDescriptorCensus?
    /// ``afterShutdown``'s descriptors by kind.
    public var descriptorsAfterShutdown: SoakDescriptorCensus?
    /// Connections the embedded server still held open when ``afterShutdown`` was taken: their
    /// descriptors are the server's, in this same process, not the client's (a stalled exchange's
    /// server side is closed only when the server next reads it).
    public var serverConnectionsAfterShutdown = 0

    /// Requests that ended with an error.
    public var failed: Int { failedByKind.values.reduce(0, +) }
    /// Requests that ended, with a response or an error.
    public var ended: Int { completed + failed }
    /// Whether nothing hung, no `POST` was duplicated and no body was corrupted.
    public var passed: Bool { hung == 0 && duplicatedPosts == 0 && corrupted == 0 }

    /// The report as a plain-text table.
    public var table: String {
        var rows: [(String, String)] = [
            ("transport", transport),
            ("requests", "\(configuration.requests) (\(gets) GET, \(posts) POST), concurrency \(configuration.concurrency)"),
            ("faults", configuration.faults.description),
            ("deadline / grace", "\(configuration.deadline) / \(configuration.grace)"),
            ("duration", "\(duration)"),
            (
                "completed",
                "\(completed) (verified 200: \(verified)"
                    + completedByStatus.sorted { $0.key < $1.key }.filter { $0.key != 200 }.map { ", \($0.key): \($0.value)" }.joined()
                    + ")"
            ),
            (
                "failed",
                "\(failed)"
                    + (failedByKind.isEmpty
                        ? ""
                        : " ("
                            + failedByKind.sorted { $0.key < $1.key }
                            .map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")")
            ),
            ("hung", "\(hung)"),
            ("duplicated POSTs", "\(duplicatedPosts)"),
            ("corrupted bodies", "\(corrupted)"),
            ("repeated GETs (retries)", "\(repeatedGets)"),
            ("late arrivals", "\(lateArrivals)"),
            ("injected faults", injectedFaults.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        ]
        if let memory {
            rows.append(("RSS start / middle / end", Self.describe(memory.resident)))
            rows.append(("heap in use start / middle / end", Self.describe(memory.heapInUse)))
            rows.append(("RSS at the end, free heap released", Self.mebibytes(memory.residentAfterRelease)))
        }
        if let baseline, let afterShutdown {
            rows.append(
                (
                    "fds baseline → after shutdown",
                    "\(baseline.openFileDescriptors) → \(afterShutdown.openFileDescriptors)"
                        + " (of which the server's open connections: \(serverConnectionsAfterShutdown))"
                ))
            rows.append(("threads baseline → after shutdown", "\(baseline.threads) → \(afterShutdown.threads)"))
        }
        if let baselineDescriptors, let descriptorsAfterShutdown {
            rows.append(("fds at baseline", baselineDescriptors.description))
            rows.append(("fds after shutdown", descriptorsAfterShutdown.description))
        }
        let width = rows.map(\.0.count).max() ?? 0
        var text = rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }.joined(separator: "\n")
        for (kind, message) in firstErrors.sorted(by: { $0.key < $1.key }) {
            text += "\n  first \(kind): \(message.prefix(300))"
        }
        for sample in samples { text += "\n  ! \(sample)" }
        text += "\n" + (passed ? "PASS: 0 hung, 0 duplicated POSTs, 0 corrupted bodies" : "FAIL")
        return text
    }

    static func describe(_ series: Memory.Series) -> String {
        "\(mebibytes(series.start)) / \(mebibytes(series.middle)) / \(mebibytes(series.end))"
            + " (drift \(String(format: "%.1f", series.drift * 100)) %)"
    }

    static func mebibytes(_ bytes: Int) -> String {
        String(format: "%.1f MiB", Double(bytes) / 1_048_576)
    }
}
