public import SwitchyardCore

/// The slots and the priority queue behind ``ConcurrencyLimits``, shared by every exchange of a
/// client.
///
/// ```swift
/// var configuration = ClientConfiguration()
/// configuration.plugins.append(.concurrencyLimit(ConcurrencyLimiter(maxExchanges: 16, maxExchangesPerHost: 4)))
/// ```
///
/// Invariant: after every change, no queued exchange could run — a request that finds room takes
/// it at once, and each released slot is handed to the first queued exchange (highest priority,
/// then oldest) whose host has room. So a new request never overtakes a queued one for the same host.
public final class ConcurrencyLimiter: Sendable {
    /// The limits this limiter enforces.
    public let limits: ConcurrencyLimits
    private let maxTotal: Int
    private let maxPerHost: Int
    private let state: Lock<State>

    /// Creates a limiter with no exchange in flight.
    /// - Parameters:
    ///   - maxExchanges: Exchanges in flight at once overall, or `nil`.
    ///   - maxExchangesPerHost: Exchanges in flight at once per host, or `nil`.
    ///   - scope: The requests the limits apply to.
    public convenience init(maxExchanges: Int? = nil, maxExchangesPerHost: Int? = nil, scope: RequestScope = .all) {
        self.init(limits: ConcurrencyLimits(maxExchanges: maxExchanges, maxExchangesPerHost: maxExchangesPerHost, scope: scope))
    }

    /// Creates a limiter with no exchange in flight.
    /// - Parameter limits: The limits.
    public init(limits: ConcurrencyLimits) {
        self.limits = limits
        self.maxTotal = limits.maxExchanges ?? .max
        self.maxPerHost = limits.maxExchangesPerHost ?? .max
        self.state = Lock(State(countsHosts: limits.maxExchangesPerHost != nil))
    }

    /// Exchanges holding a slot now.
    public var inFlight: Int { state.withLock { $0.total } }
    /// Exchanges waiting for a slot now.
    public var queued: Int { state.withLock { $0.queue.count } }

    /// Takes a slot for an exchange to `host`, waiting in the queue when there is none.
    /// - Parameters:
    ///   - host: The request's authority.
    ///   - priority: The request's priority.
    ///   - deadline: The exchange's deadline: the wait ends with `timeout` there.
    ///   - queued: Called once if the exchange has to wait, before it waits.
    /// - Returns: The slot; release it when the exchange ends.
    /// - Throws: `SwitchyardError.Kind.cancelled` or `SwitchyardError.Kind.timeout` while queued.
    func acquire(
        host: String, priority: RequestPriority, deadline: ContinuousClock.Instant?, queued: () -> Void
    ) async throws(SwitchyardError) -> LimiterSlot {
        let ticket: UInt64? = state.withLock { state in
            if state.hasRoom(for: host, maxTotal: maxTotal, maxPerHost: maxPerHost) {
                state.admit(host)
                return nil
            }
            return state.queue.enqueue(host, priority: priority)
        }
        guard let ticket else { return LimiterSlot(limiter: self, host: host) }
        queued()
        let failure = await LimiterQueue<String>.wait(
            deadline: deadline, timeout: .timedOut(),
            park: { continuation in state.withLock { $0.queue.park(ticket, continuation) } },
            abandon: { [weak self] error in self?.abandon(ticket, with: error) })
        if let failure { throw failure }
        return LimiterSlot(limiter: self, host: host)
    }

    /// Gives a slot back and hands freed room to queued exchanges.
    func release(host: String) {
        let granted = state.withLock { state in
            state.leave(host)
            return state.grant(maxTotal: maxTotal, maxPerHost: maxPerHost)
        }
        for continuation in granted { continuation.resume(returning: nil) }
    }

    /// Takes a queued exchange out of the queue with `error`, unless it already got its slot.
    private func abandon(_ ticket: UInt64, with error: SwitchyardError) {
        let continuation = state.withLock { $0.queue.abandon(ticket, with: error) }
        continuation?.resume(returning: error)
    }
}

extension ConcurrencyLimiter {
    /// The counts and the queue, guarded by the limiter's mutex.
    struct State {
        /// Whether per-host counts are kept (only with a per-host limit: no hashing otherwise).
        let countsHosts: Bool
        var total = 0
        var perHost: [String: Int] = [:]
        /// Exchanges waiting for a slot, with their hosts.
        var queue = LimiterQueue<String>()

        init(countsHosts: Bool) {
            self.countsHosts = countsHosts
        }

        func hasRoom(for host: String, maxTotal: Int, maxPerHost: Int) -> Bool {
            guard total < maxTotal else { return false }
            return !countsHosts || perHost[host, default: 0] < maxPerHost
        }

        mutating func admit(_ host: String) {
            total += 1
            if countsHosts { perHost[host, default: 0] += 1 }
        }

        mutating func leave(_ host: String) {
            total -= 1
            guard countsHosts, let count = perHost[host] else { return }
            perHost[host] = count > 1 ? count - 1 : nil
        }

        /// Admits queued exchanges while there is room: highest priority first, oldest first, skipping
        /// those whose host is full. Returns the continuations to resume.
        mutating func grant(maxTotal: Int, maxPerHost: Int) -> [LimiterQueue<String>.Continuation] {
            var granted: [LimiterQueue<String>.Continuation] = []
            while total < maxTotal, !queue.isEmpty,
                let ticket = queue.first(where: { hasRoom(for: $0, maxTotal: maxTotal, maxPerHost: maxPerHost) }),
                let admitted = queue.admit(ticket)
            {
                admit(admitted.payload)
                if let continuation = admitted.continuation { granted.append(continuation) }
            }
            return granted
        }
    }
}
