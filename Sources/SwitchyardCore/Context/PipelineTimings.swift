/// Where an exchange spent its time inside the chain, beside the transport's ``TransferTimings``.
///
/// Recorded on the ``ExchangeContext`` by the chain and its interceptors, and the same on every
/// transport and platform.
public struct PipelineTimings: Sendable, Hashable {
    /// From the start of the exchange until the transport was first asked to send: time spent in
    /// the chain and waiting before the wire.
    public var queued: Duration?
    /// Time spent inside each interceptor (its own work, excluding the rest of the chain), by the
    /// interceptor's name, summed over attempts.
    public var interceptors: [String: Duration]
    /// Each back-off wait between attempts, in order.
    public var backoffs: [Duration]
    /// Time spent decoding the body into a model, when the exchange decoded one.
    public var decoding: Duration?

    /// Creates stage timings.
    /// - Parameters:
    ///   - queued: Start of the exchange → first transport send.
    ///   - interceptors: Interceptor name → time inside it.
    ///   - backoffs: The back-off waits between attempts.
    ///   - decoding: Time spent decoding.
    public init(
        queued: Duration? = nil, interceptors: [String: Duration] = [:], backoffs: [Duration] = [],
        decoding: Duration? = nil
    ) {
        self.queued = queued
        self.interceptors = interceptors
        self.backoffs = backoffs
        self.decoding = decoding
    }

    /// The total of all back-off waits.
    public var totalBackoff: Duration { backoffs.reduce(.zero, +) }
}
