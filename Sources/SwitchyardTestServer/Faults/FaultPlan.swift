/// How often the ``LoopbackServer`` misbehaves on purpose: the fault-injection mode behind
/// `yard serve --faults` and the soak runs (``LoopbackServer/Configuration/faults``).
///
/// Each rate is the probability, from 0 to 1, that one request gets that fault. Every request the
/// server reads is subject to the plan, whatever its route. The decision is a pure function of
/// ``seed``, the request's target and which arrival of that target it is (for `/soak/{id}`: the
/// arrival number of the id, so a retry of a failed request draws again), so a run can be
/// repeated: the same seed and requests give the same faults (requests outside `/soak` are keyed
/// by their order of arrival at the server, which concurrency can change).
///
/// ```swift
/// var plan = FaultPlan(seed: 42)
/// plan.resetBeforeResponse = 0.01
/// plan.stall = 0.005
/// let server = try await LoopbackServer.start(.init(faults: plan))
/// // or, as on the command line:
/// let parsed = try FaultPlan(spec: "reset=0.01,stall=0.005,truncate=0.01,malformed=0.005,burst=0.01", seed: 42)
/// ```
///
/// What each fault does:
/// - ``Fault/resetBeforeResponse``: the request is read (and counted), then the connection is
///   reset (TCP RST) without an answer.
/// - ``Fault/resetMidBody``: the response head and half its body are sent, then a reset.
/// - ``Fault/stall``: the request is read, never answered; only the client's deadline ends it.
/// - ``Fault/truncatedLength`` / ``Fault/truncatedChunked``: the response head with its real
///   `Content-Length` and half the body, or a chunked response whose terminating chunk never comes,
///   then the connection closes. Never a close-delimited body, which no client could tell from a
///   complete one.
/// - ``Fault/malformedStatusLine`` / ``Fault/malformedChunkSize``: a status line with a non-numeric
///   code, or a chunked body whose chunk-size line is not hexadecimal, then a close.
/// - ``Fault/burst``: a `503 Service Unavailable` (no `Retry-After`) to this request and the next
///   ``burstLength`` − 1 requests the server reads, whatever they are.
///
/// Routes answered with a buffered response (`/soak/{id}`, most small routes) are truncated or
/// reset as themselves, with their own head; the others get a generic 200 with pattern bytes.
public struct FaultPlan: Sendable, Hashable, CustomStringConvertible {
    /// One kind of injected misbehaviour, as counted by ``LoopbackServer/injectedFaults``.
    public enum Fault: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The connection is reset after the request was read, before any response byte.
        case resetBeforeResponse = "reset-before-response"
        /// The connection is reset after the head and half the body.
        case resetMidBody = "reset-mid-body"
        /// The request is never answered.
        case stall
        /// `Content-Length` promises more bytes than are sent, then a close.
        case truncatedLength = "truncated-length"
        /// A chunked body without its terminating chunk, then a close.
        case truncatedChunked = "truncated-chunked"
        /// A status line whose code is not a number, then a close.
        case malformedStatusLine = "malformed-status-line"
        /// A chunk-size line that is not hexadecimal, then a close.
        case malformedChunkSize = "malformed-chunk-size"
        /// One `503` of a burst.
        case burst

        /// The fault's stable name, e.g. `reset-mid-body`.
        public var description: String { rawValue }
    }

    /// Probability of ``Fault/resetBeforeResponse``.
    public var resetBeforeResponse: Double
    /// Probability of ``Fault/resetMidBody``.
    public var resetMidBody: Double
    /// Probability of ``Fault/stall``.
    public var stall: Double
    /// Probability of a truncated body (``Fault/truncatedLength`` or ``Fault/truncatedChunked``, half each).
    public var truncate: Double
    /// Probability of malformed framing (``Fault/malformedStatusLine`` or ``Fault/malformedChunkSize``, half each).
    public var malformed: Double
    /// Probability that a request starts a burst of ``burstLength`` `503`s.
    public var burst: Double
    /// How many `503`s one burst answers, the first included. Default 8.
    public var burstLength: Int
    /// The seed of the decisions: the same seed and requests give the same faults.
    public var seed: UInt64

    /// Creates a plan; every rate defaults to 0 (no fault).
    /// - Parameters:
    ///   - resetBeforeResponse: Probability of a reset before the response.
    ///   - resetMidBody: Probability of a reset in the middle of the body.
    ///   - stall: Probability of a request never answered.
    ///   - truncate: Probability of a truncated body.
    ///   - malformed: Probability of malformed framing.
    ///   - burst: Probability that a request starts a burst of `503`s.
    ///   - burstLength: `503`s per burst.
    ///   - seed: The seed of the decisions.
    public init(
        resetBeforeResponse: Double = 0, resetMidBody: Double = 0, stall: Double = 0, truncate: Double = 0,
        malformed: Double = 0, burst: Double = 0, burstLength: Int = 8, seed: UInt64 = 1
    ) {
        self.resetBeforeResponse = resetBeforeResponse
        self.resetMidBody = resetMidBody
        self.stall = stall
        self.truncate = truncate
        self.malformed = malformed
        self.burst = burst
        self.burstLength = burstLength
        self.seed = seed
    }

    /// The sum of the rates: the probability that a request starts a fault.
    public var totalRate: Double { resetBeforeResponse + resetMidBody + stall + truncate + malformed + burst }

    /// The plan in the syntax ``init(spec:seed:)`` reads, with the seed, e.g.
    /// `reset-before=0.005,reset-mid=0.005,stall=0.005,truncate=0.01,malformed=0.005,burst=0.01,burst-length=8 seed=42`.
    public var description: String {
        let rates = [
            ("reset-before", resetBeforeResponse), ("reset-mid", resetMidBody), ("stall", stall),
            ("truncate", truncate), ("malformed", malformed), ("burst", burst)
        ]
        return rates.map { "\($0.0)=\($0.1)" }.joined(separator: ",") + ",burst-length=\(burstLength) seed=\(seed)"
    }

    /// The fault for one request, or `nil`: a pure function of the seed, `key` and `arrival`.
    /// (A burst in progress is the injector's business, not the plan's.)
    func draw(key: String, arrival: Int) -> Fault? {
        var hash = StableHash(seed: seed)
        hash.combine(key)
        hash.combine(UInt64(truncatingIfNeeded: arrival))
        let bits = hash.finalize()
        let uniform = Double(bits >> 11) * 0x1.0p-53
        let variant = bits & 1 == 0
        var threshold = resetBeforeResponse
        if uniform < threshold { return .resetBeforeResponse }
        threshold += resetMidBody
        if uniform < threshold { return .resetMidBody }
        threshold += stall
        if uniform < threshold { return .stall }
        threshold += truncate
        if uniform < threshold { return variant ? .truncatedLength : .truncatedChunked }
        threshold += malformed
        if uniform < threshold { return variant ? .malformedStatusLine : .malformedChunkSize }
        threshold += burst
        if uniform < threshold { return .burst }
        return nil
    }
}

/// A hash that is the same in every process (unlike `Hasher`, seeded per process): FNV-1a over the
/// bytes, finished with SplitMix64's mixer.
struct StableHash {
    private var state: UInt64

    init(seed: UInt64) {
        state = 0xcbf2_9ce4_8422_2325 ^ Self.mix(seed)
    }

    mutating func combine(_ text: String) {
        for byte in text.utf8 {
            state = (state ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        state = (state ^ 0xff) &* 0x100_0000_01b3
    }

    mutating func combine(_ value: UInt64) {
        state = Self.mix(state ^ value)
    }

    func finalize() -> UInt64 { Self.mix(state) }

    /// SplitMix64's finaliser.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
