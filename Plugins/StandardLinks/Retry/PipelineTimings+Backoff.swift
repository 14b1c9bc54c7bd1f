public import SwitchyardCore

extension PipelineTimings {
    /// The stage the retry link records for each wait between attempts (its back-off, or the time a
    /// hold kept it waiting).
    public static let backoffStage = "backoff"

    /// Each back-off wait between attempts, in order.
    public var backoffs: [Duration] { durations(of: Self.backoffStage) }

    /// The total of all back-off waits.
    public var totalBackoff: Duration { backoffs.reduce(.zero, +) }
}
