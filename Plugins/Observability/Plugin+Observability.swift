public import SwitchyardCore

extension Plugin {
    /// The layer of ``timingStats(_:exporter:)``: the first call link after events, so a call's
    /// time includes every other link.
    public static let timingStatsLayer: Layer = .measuring
    /// The layer of ``logging(_:)``: below every attempt plugin of a department or the app, so each
    /// line shows the request as it goes on the wire.
    public static let loggingLayer: Layer = .recording
    /// The layer of ``httpMetrics(_:)``: the same as logging's, inside it.
    public static let httpMetricsLayer: Layer = .recording

    /// A plugin that records every call into `stats` (and optionally swift-metrics): per-endpoint
    /// percentiles of each phase (see ``TimingStatsInterceptor``).
    ///
    /// ```swift
    /// let stats = TimingStats()
    /// configuration.plugins.append(.timingStats(stats))
    /// print(stats.snapshot().endpoints.count)
    /// ```
    ///
    /// Named `timingStats`, in the call position at ``timingStatsLayer``. Its presence makes the
    /// chain record stage timings (one clock reading per link boundary); without it none are read.
    /// - Parameters:
    ///   - stats: Where calls are aggregated; share one between clients to aggregate them together.
    ///   - exporter: Also export each call's timings to swift-metrics (default: no).
    /// - Returns: The plugin.
    public static func timingStats(_ stats: TimingStats, exporter: TimingMetricsExporter? = nil) -> Plugin {
        Plugin(
            name: "timingStats", position: .call, layer: timingStatsLayer,
            interceptors: [TimingStatsInterceptor(stats: stats, exporter: exporter)])
    }

    /// A plugin that logs every attempt through swift-log, secrets redacted (see ``LoggingInterceptor``).
    ///
    /// ```swift
    /// configuration.plugins.append(.logging(LoggingConfiguration(logger: Logger(label: "api"))))
    /// ```
    ///
    /// Named `logging`, in the attempt position at ``loggingLayer``.
    /// - Parameter configuration: The logger, levels and redaction.
    /// - Returns: The plugin.
    public static func logging(_ configuration: LoggingConfiguration) -> Plugin {
        Plugin(
            name: "logging", position: .attempt, layer: loggingLayer,
            interceptors: [LoggingInterceptor(configuration: configuration)])
    }

    /// A plugin that records OpenTelemetry-named HTTP client metrics of every attempt through
    /// swift-metrics (see ``HTTPClientMetrics``).
    ///
    /// Named `httpMetrics`, in the attempt position at ``httpMetricsLayer``.
    /// - Parameter metrics: The metrics' names and dimensions.
    /// - Returns: The plugin.
    public static func httpMetrics(_ metrics: HTTPClientMetrics) -> Plugin {
        Plugin(
            name: "httpMetrics", position: .attempt, layer: httpMetricsLayer, relations: [.inside("logging")],
            interceptors: [HTTPClientMetricsInterceptor(metrics: metrics)])
    }
}
