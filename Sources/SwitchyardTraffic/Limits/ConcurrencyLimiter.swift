public import SwitchyardCore

/// The slots and the priority queue behind ``ConcurrencyLimits``, shared by every exchange of a
/// client.
///
/// ```swift
/// var configuration = ClientConfiguration()
/// configuration.concurrencyLimiter = ConcurrencyLimiter(maxExchanges: 16, maxExchangesPerHost: 4)
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
    public var queued: Int { state.withLock { $0.queues.reduce(0) { $0 + $1.count } } }

    /// Takes a slot for an exchange to `host`, waiting in the queue when there is none.
    /// - Parameters:
    ///   - host: The request's authority.
    ///   - priority: The request's priority.
    ///   - deadline: The exchange's deadline: the wait ends with `timeout` there.
    ///   - queued: Called once if the exchange has to wait, before it waits.
    /// - Returns: The slot; release it when the exchange ends.
    /// - Throws: ``SwitchyardError/Kind/cancelled`` or ``SwitchyardError/Kind/timeout`` while queued.
    func acquire(
        host: String, priority: RequestPriority, deadline: ContinuousClock.Instant?, queued: () -> Void
    ) async throws(SwitchyardError) -> LimiterSlot {
        let ticket: UInt64? = state.withLock { state in
            if state.hasRoom(for: host, maxTotal: maxTotal, maxPerHost: maxPerHost) {
                state.admit(host)
                return nil
            }
            return state.enqueue(host: host, priority: priority)
        }
        guard let ticket else { return LimiterSlot(limiter: self, host: host) }
        queued()
        let timer = deadline.map { deadline in
            Task { [weak self] in
                try? await sleepReleasingTimerOnCancel(until: deadline)
                if !Task.isCancelled { self?.abandon(ticket, with: .timedOut()) }
            }
        }
        defer { timer?.cancel() }
        let failure: SwitchyardError? = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let decided = state.withLock { $0.park(ticket, continuation) }
                if let decided { continuation.resume(returning: decided.error) }
            }
        } onCancel: {
            abandon(ticket, with: .cancelled)
        }
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
        let continuation = state.withLock { $0.abandon(ticket, with: error) }
        continuation?.resume(returning: error)
    }
}

extension ConcurrencyLimiter {
    /// What a queued exchange has been told: it got its slot (`error == nil`) or must give up.
    struct Decision {
        let error: SwitchyardError?
    }

    /// One queued exchange.
    struct Waiter {
        let host: String
        let priority: RequestPriority
        var continuation: CheckedContinuation<SwitchyardError?, Never>?
        var decision: Decision?
    }

    /// The counts and the queue, guarded by the limiter's mutex.
    struct State {
        /// Whether per-host counts are kept (only with a per-host limit: no hashing otherwise).
        let countsHosts: Bool
        var total = 0
        var perHost: [String: Int] = [:]
        /// Queued tickets by priority (index = raw value), oldest first.
        var queues: [[UInt64]] = [[], [], []]
        /// Tickets waiting, or decided but not yet picked up by their exchange.
        var waiters: [UInt64: Waiter] = [:]
        var nextTicket: UInt64 = 0

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

        mutating func enqueue(host: String, priority: RequestPriority) -> UInt64 {
            nextTicket += 1
            queues[priority.rawValue].append(nextTicket)
            waiters[nextTicket] = Waiter(host: host, priority: priority)
            return nextTicket
        }

        /// Stores the continuation of a queued exchange, or returns its decision if one came first.
        mutating func park(_ ticket: UInt64, _ continuation: CheckedContinuation<SwitchyardError?, Never>) -> Decision? {
            guard var waiter = waiters[ticket] else { return Decision(error: .cancelled) }
            if let decision = waiter.decision {
                waiters[ticket] = nil
                return decision
            }
            waiter.continuation = continuation
            waiters[ticket] = waiter
            return nil
        }

        /// Removes a waiting ticket with `error`; returns its continuation to resume, if parked.
        mutating func abandon(_ ticket: UInt64, with error: SwitchyardError) -> CheckedContinuation<SwitchyardError?, Never>? {
            guard var waiter = waiters[ticket], waiter.decision == nil else { return nil }
            remove(ticket, priority: waiter.priority)
            if let continuation = waiter.continuation {
                waiters[ticket] = nil
                return continuation
            }
            waiter.decision = Decision(error: error)
            waiters[ticket] = waiter
            return nil
        }

        /// Admits queued exchanges while there is room: highest priority first, oldest first, skipping
        /// those whose host is full. Returns the continuations to resume.
        mutating func grant(maxTotal: Int, maxPerHost: Int) -> [CheckedContinuation<SwitchyardError?, Never>] {
            var granted: [CheckedContinuation<SwitchyardError?, Never>] = []
            while total < maxTotal, let ticket = firstRunnable(maxTotal: maxTotal, maxPerHost: maxPerHost),
                var waiter = waiters[ticket]
            {
                remove(ticket, priority: waiter.priority)
                admit(waiter.host)
                if let continuation = waiter.continuation {
                    waiters[ticket] = nil
                    granted.append(continuation)
                } else {
                    waiter.decision = Decision(error: nil)
                    waiters[ticket] = waiter
                }
            }
            return granted
        }

        private func firstRunnable(maxTotal: Int, maxPerHost: Int) -> UInt64? {
            for queue in queues {
                for ticket in queue {
                    guard let waiter = waiters[ticket] else { continue }
                    if hasRoom(for: waiter.host, maxTotal: maxTotal, maxPerHost: maxPerHost) { return ticket }
                }
            }
            return nil
        }

        private mutating func remove(_ ticket: UInt64, priority: RequestPriority) {
            if let index = queues[priority.rawValue].firstIndex(of: ticket) {
                queues[priority.rawValue].remove(at: index)
            }
        }
    }
}
