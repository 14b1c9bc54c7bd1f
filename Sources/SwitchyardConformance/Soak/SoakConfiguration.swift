public import Switchyard
public import SwitchyardTestServer

/// What a ``SoakRun`` does: how many requests, how many at once, under which faults and deadline.
///
/// ```swift
/// var configuration = SoakConfiguration(requests: 5_000, concurrency: 32)
/// configuration.deadline = .seconds(10)
/// let report = try await SoakRun(configuration: configuration, transportName: "curl") { CurlTransport() }.run()
/// #expect(report.hung == 0)
/// ```
public struct SoakConfiguration: Sendable {
    /// The faults of `yard bench --soak` when none are given:
    /// `reset=0.01,stall=0.005,truncate=0.01,malformed=0.005,burst=0.01` (about 4 % of the requests).
    public static let defaultFaults = FaultPlan(
        resetBeforeResponse: 0.005, resetMidBody: 0.005, stall: 0.005,
        truncate: 0.01, malformed: 0.005, burst: 0.01, seed: 1)

    /// Logical requests to send (retries not counted). Default 100,000.
    public var requests: Int
    /// Requests in flight at once. Default 64.
    public var concurrency: Int
    /// The faults the embedded server injects.
    public var faults: FaultPlan
    /// Each request's deadline (`RequestOptions.timeout`), which ends the stalled ones. Default 5 s.
    public var deadline: Duration
    /// How long past its deadline a request may take to end before it counts as hung. Default 10 s.
    public var grace: Duration
    /// The share of the requests sent as `POST` (without `Idempotency-Key`), from 0 to 1. Default 0.3.
    public var postShare: Double
    /// The response body sizes, used in turn. Default 256 B, 1 KiB, 4 KiB, 16 KiB, 64 KiB.
    public var sizes: [Int]
    /// The size of each `POST`'s body. Default 512 B.
    public var postBodySize: Int
    /// Requests sent first, through their own client and transport (then shut down), and not counted:
    /// they start the lazily created threads and pools, so the baseline is taken after them. Default 1,000.
    public var warmupRequests: Int
    /// Whether to take the process's figures (resident memory, descriptors, threads): only meaningful
    /// when nothing else runs in the process, so not in a parallel test pass. Default `true`.
    public var measuresProcess: Bool
    /// Event-loop threads of the embedded server. Default 1.
    public var serverThreads: Int
    /// The client's configuration: the default chain (`ClientConfiguration()`) unless set. A run
    /// that must repeat exactly turns the retry budget off (`retryBudget: nil`): its allowance
    /// follows the clock, so a slower run retries more and the server sees other requests.
    public var client: ClientConfiguration

    /// Creates a configuration; see each property for its default.
    /// - Parameters:
    ///   - requests: Logical requests to send.
    ///   - concurrency: Requests in flight at once.
    ///   - faults: The faults the server injects.
    ///   - deadline: Each request's deadline.
    ///   - grace: How long past its deadline a request may take to end.
    public init(
        requests: Int = 100_000, concurrency: Int = 64, faults: FaultPlan = SoakConfiguration.defaultFaults,
        deadline: Duration = .seconds(5), grace: Duration = .seconds(10)
    ) {
        self.requests = requests
        self.concurrency = concurrency
        self.faults = faults
        self.deadline = deadline
        self.grace = grace
        postShare = 0.3
        sizes = [256, 1024, 4096, 16384, 65536]
        postBodySize = 512
        warmupRequests = 1_000
        measuresProcess = true
        serverThreads = 1
        client = ClientConfiguration()
    }
}
