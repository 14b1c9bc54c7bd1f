/// Where an exchange spent its time inside the chain, beside the transport's ``TransferTimings``:
/// each interceptor's own time, and the named stages links and layers record
/// (``ExchangeContext/recordStage(_:_:)``).
///
/// A stage's name is its owner's: the kernel records `queued` (the start of the exchange until the
/// transport was first asked to send, in a chain that reads stage timings), and a feature records
/// its own (a wait between attempts, the decoding of the body into a model), so timing statistics
/// report every stage without knowing who recorded it.
public struct PipelineTimings: Sendable, Hashable {
    /// One recorded stage: a name and how long it took.
    public struct Stage: Sendable, Hashable {
        /// The stage's name, e.g. `queued`.
        public var name: String
        /// How long it took.
        public var duration: Duration

        /// Creates a stage record.
        /// - Parameters:
        ///   - name: The stage's name.
        ///   - duration: How long it took.
        public init(name: String, duration: Duration) {
            self.name = name
            self.duration = duration
        }
    }

    /// Time spent inside each interceptor (its own work, excluding the rest of the chain), by the
    /// interceptor's name, summed over attempts.
    public var interceptors: [String: Duration]
    /// The stages recorded, in the order they were recorded (a stage met twice is listed twice).
    public var stages: [Stage]

    /// Creates stage timings.
    /// - Parameters:
    ///   - interceptors: Interceptor name → time inside it.
    ///   - stages: The recorded stages, in order.
    public init(interceptors: [String: Duration] = [:], stages: [Stage] = []) {
        self.interceptors = interceptors
        self.stages = stages
    }

    /// Every duration recorded for the stage `name`, in order.
    /// - Parameter name: The stage's name.
    /// - Returns: Its durations; empty when it was never recorded.
    public func durations(of name: String) -> [Duration] {
        stages.compactMap { $0.name == name ? $0.duration : nil }
    }

    /// The sum of the durations recorded for the stage `name`, or `nil` when it was never recorded.
    /// - Parameter name: The stage's name.
    public func total(of name: String) -> Duration? {
        var total: Duration?
        for stage in stages where stage.name == name { total = (total ?? .zero) + stage.duration }
        return total
    }

    /// The stage the kernel records: from the start of the exchange until the transport was first
    /// asked to send (in a chain that reads stage timings), or what a link that holds calls before
    /// the wire recorded under the same name.
    public static let queuedStage = "queued"

    /// The `queued` stage's total: time spent in the chain and waiting before the wire.
    public var queued: Duration? { total(of: Self.queuedStage) }
}
