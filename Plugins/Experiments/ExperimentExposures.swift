import SwitchyardCore

/// What the experiments plugin reports: for each experiment variant, how many calls carried it and
/// how many of those failed — the exposure and error counts an experiment dashboard needs.
///
/// The plugin feeds it from its own event observer; read it with ``snapshot()``, or pass a
/// `report` closure to `Plugin.experiments(_:name:scope:assignment:report:)` to
/// forward every exposure to your analytics as it happens.
public final class ExperimentExposures: Sendable {
    /// One experiment variant's tally.
    public struct Tally: Sendable, Hashable {
        /// Calls that carried the variant and ended (succeeded, failed or were cancelled).
        public var calls: Int
        /// Calls that failed (not counting cancellations).
        public var failures: Int

        /// Creates a tally.
        /// - Parameters:
        ///   - calls: Calls that carried the variant.
        ///   - failures: Those that failed.
        public init(calls: Int = 0, failures: Int = 0) {
            self.calls = calls
            self.failures = failures
        }
    }

    /// One finished call's exposure, as handed to the `report` closure.
    public struct Exposure: Sendable, Hashable {
        /// The exchange.
        public let exchangeID: UInt64
        /// The assignment the call carried.
        public let assignment: ExperimentAssignment
        /// `succeeded`, `failed` or `cancelled`.
        public let outcome: String
    }

    private struct State {
        var pending: [UInt64: ExperimentAssignment] = [:]
        var tallies: [String: Tally] = [:]
    }

    private let state = Lock(State())

    /// Creates an empty tally.
    public init() {}

    /// `"experiment=variant"` → tally, for every variant seen so far.
    public func snapshot() -> [String: Tally] {
        state.withLock { $0.tallies }
    }

    /// Remembers which assignment an exchange carried (called by the plugin's interceptor).
    func attach(_ assignment: ExperimentAssignment, to exchangeID: UInt64) {
        state.withLock { $0.pending[exchangeID] = assignment }
    }

    /// Counts a finished call; returns its exposure, or `nil` if the event is not a call's end or
    /// the call carried no assignment.
    func record(_ event: ExchangeEvent) -> Exposure? {
        let outcome: String
        switch event.kind {
        case .succeeded: outcome = "succeeded"
        case .failed: outcome = "failed"
        case .cancelled: outcome = "cancelled"
        default: return nil
        }
        return state.withLock { state in
            guard let assignment = state.pending.removeValue(forKey: event.exchangeID) else { return nil }
            for (experiment, variant) in assignment.variants {
                state.tallies["\(experiment)=\(variant)", default: Tally()].calls += 1
                if outcome == "failed" { state.tallies["\(experiment)=\(variant)", default: Tally()].failures += 1 }
            }
            return Exposure(exchangeID: event.exchangeID, assignment: assignment, outcome: outcome)
        }
    }
}
