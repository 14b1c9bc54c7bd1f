public import CoreMetrics
import SwitchyardCore

/// Sends each call's timings to swift-metrics: a `Timer` per phase with the dimensions `method`,
/// `host`, `path` (the template) and `phase`, and a `Counter` of errors per endpoint.
///
/// ```swift
/// var configuration = ClientConfiguration()
/// configuration.plugins.append(.timingStats(TimingStats(), exporter: TimingMetricsExporter()))  // the bootstrapped MetricsSystem
/// // or: TimingMetricsExporter(factory: myPrometheusFactory)
/// ```
public struct TimingMetricsExporter: Sendable {
    /// The timer label: `switchyard_phase_duration`.
    public static let timerLabel = "switchyard_phase_duration"
    /// The counter label: `switchyard_errors`.
    public static let errorLabel = "switchyard_errors"

    private let factory: (any MetricsFactory)?

    /// Creates an exporter.
    /// - Parameter factory: Where metrics go; `nil` (default) uses the bootstrapped `MetricsSystem`.
    public init(factory: (any MetricsFactory)? = nil) {
        self.factory = factory
    }

    func export(_ key: TimingStats.Key, phases: [(String, Duration)], failed: Bool) {
        let dimensions = [("method", key.method), ("host", key.host), ("path", key.path)]
        for (phase, duration) in phases {
            let labels = dimensions + [("phase", phase)]
            let timer =
                factory.map { Timer(label: Self.timerLabel, dimensions: labels, factory: $0) }
                ?? Timer(label: Self.timerLabel, dimensions: labels)
            let (seconds, attoseconds) = duration.components
            timer.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        }
        if failed {
            let counter =
                factory.map { Counter(label: Self.errorLabel, dimensions: dimensions, factory: $0) }
                ?? Counter(label: Self.errorLabel, dimensions: dimensions)
            counter.increment()
        }
    }
}
