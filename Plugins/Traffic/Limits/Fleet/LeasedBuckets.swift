import SwitchyardCore

/// The tokens a process holds on lease from a ``RateLimitLedger``, per bucket, and the requests
/// waiting for the next lease.
///
/// A request that finds a leased token and nobody queued takes it under the lock: no round trip.
/// Otherwise it queues, and one task per bucket (the fetcher) takes a lease for the queue — as many
/// tokens as requests wait, at least the lease size — hands them out in priority order, sleeps until
/// the ledger's next token is due while requests still wait, and ends when the queue is empty.
final class LeasedBuckets: Sendable {
    private let sharing: RateLimitSharing
    private let limits: RateLimits
    private let leaseSize: Int
    private let clock: LimiterClock
    private let state = Lock<[String: Bucket]>([:])

    init(sharing: RateLimitSharing, limits: RateLimits, clock: LimiterClock) {
        self.sharing = sharing
        self.limits = limits
        self.clock = clock
        let tenthOfASecond = Int((limits.requestsPerSecond / 10).rounded(.down))
        self.leaseSize = max(1, min(sharing.leaseSize ?? tenthOfASecond, limits.burst))
    }

    /// Takes a leased token for bucket `key`, waiting for the next lease when there is none.
    /// - Returns: `nil` once a token is taken; the ledger's failure when it could not answer (now or
    ///   within ``RateLimitSharing/retryInterval``): the caller then follows the fallback, and
    ///   `isFirstToSee` tells whether this request is the one to report it.
    /// - Throws: `timeout` or `cancelled` while queued.
    func acquire(
        key: String, priority: RequestPriority, deadline: ContinuousClock.Instant?, queued: () -> Void
    ) async throws(SwitchyardError) -> (failure: SwitchyardError, isFirstToSee: Bool)? {
        let now = clock.now()
        let step = state.withLock { buckets in
            if buckets.count >= RateLimiter.maxTrackedBuckets, buckets[key] == nil {
                buckets = buckets.filter { !$0.value.isIdle }  // leased tokens expire within a second anyway
            }
            return buckets[key, default: Bucket()].enter(at: now, priority: priority)
        }
        let ticket: UInt64
        switch step {
        case .admitted: return nil
        case .unavailable(let failure): return (failure, false)
        case .queued(let queuedTicket, let startsFetcher):
            ticket = queuedTicket
            if startsFetcher { startFetcher(key, id: queuedTicket) }
        }
        queued()
        let failure = await LimiterQueue<Void>.wait(
            deadline: deadline,
            timeout: .timedOut("It was still waiting for the fleet's rate limit to let it go."),
            park: { continuation in
                state.withLock { buckets in
                    guard buckets[key] != nil else { return .init(error: .cancelled) }
                    return buckets[key]?.queue.park(ticket, continuation)
                }
            },
            abandon: { [weak self] error in self?.abandon(ticket, key: key, with: error) })
        if let failure { throw failure }
        return state.withLock { $0[key]?.fellBack.removeValue(forKey: ticket) }.map { ($0, true) }
    }

    /// Drops the leased tokens of `key` and holds the ledger's bucket for every process: once this
    /// returns, no process gets a token of it before the hold ends (unless the ledger failed, within
    /// its bound; the local buckets hold this process then).
    func hold(_ key: String, for duration: Duration) async {
        state.withLock { $0[key]?.tokens = 0 }
        try? await sharing.ledger.hold(key, for: duration, limits: limits)
    }

    private func startFetcher(_ key: String, id: UInt64) {
        // Detached: it serves every queued request of the bucket, not the one that started it.
        let task = Task.detached { [weak self] in
            guard let self else { return }
            await self.fetch(key, id: id)
        }
        let orphaned = state.withLock { buckets in
            guard buckets[key]?.fetcherID == id else { return true }
            buckets[key]?.fetcher = task
            return false
        }
        if orphaned { task.cancel() }
    }

    /// Takes leases for the queue of `key` until it is empty (or until the fetcher `id` is stopped
    /// while it sleeps, its queue emptied by deadlines and cancellations).
    private func fetch(_ key: String, id: UInt64) async {
        while true {
            guard let wanted = state.withLock({ $0[key]?.fetcherID == id ? max(leaseSize, $0[key]?.queue.count ?? 0) : nil }) else {
                return
            }
            let result: Result<RateLimitGrant, SwitchyardError>
            do {
                result = .success(try await sharing.ledger.take(wanted, from: key, limits: limits))
            } catch {
                result = .failure(error as? SwitchyardError ?? SwitchyardError(.transport, "\(error)"))
            }
            let now = clock.now()
            let (admitted, next) = state.withLock { buckets -> ([LimiterQueue<Void>.Continuation], Duration?) in
                guard buckets[key]?.fetcherID == id else { return ([], nil) }
                return buckets[key, default: Bucket()].receive(result, at: now, sharing: sharing)
            }
            for continuation in admitted { continuation.resume(returning: nil) }
            guard let next else { return }
            do {
                try await clock.sleep(now + max(.milliseconds(1), next))
            } catch {
                return  // stopped: its queue emptied
            }
            state.withLock { buckets in
                if buckets[key]?.fetcherID == id { buckets[key]?.fetcherSleeps = false }
            }
        }
    }

    private func abandon(_ ticket: UInt64, key: String, with error: SwitchyardError) {
        let (continuation, stopped) = state.withLock { buckets -> (LimiterQueue<Void>.Continuation?, Task<Void, Never>?) in
            let continuation = buckets[key]?.queue.abandon(ticket, with: error)
            // A fetcher sleeping until the ledger's next token serves nobody now: stop it (one in a
            // round trip ends by itself when it finds the queue empty).
            guard buckets[key]?.queue.isEmpty == true, buckets[key]?.fetcherSleeps == true else { return (continuation, nil) }
            let fetcher = buckets[key]?.fetcher
            buckets[key]?.endFetcher()
            return (continuation, fetcher)
        }
        stopped?.cancel()
        continuation?.resume(returning: error)
    }
}

extension LeasedBuckets {
    /// What a request entering a bucket does.
    enum Step {
        case admitted
        case unavailable(SwitchyardError)
        case queued(ticket: UInt64, startsFetcher: Bool)
    }

    /// One bucket's leased tokens and queue.
    struct Bucket {
        var tokens = 0
        var expiresAt: Duration = .zero
        var queue = LimiterQueue<Void>()
        /// The fetcher taking leases for the queue, if one runs: its id, task, and whether it sleeps.
        var fetcherID: UInt64?
        var fetcher: Task<Void, Never>?
        var fetcherSleeps = false
        /// The ledger's last failure, and until when requests go by the fallback without asking it.
        var failure: (error: SwitchyardError, until: Duration)?
        /// Tickets let go because the ledger failed, with its error (the request reports it).
        var fellBack: [UInt64: SwitchyardError] = [:]

        mutating func enter(at now: Duration, priority: RequestPriority) -> Step {
            if let failure, now < failure.until { return .unavailable(failure.error) }
            failure = nil
            if queue.isEmpty, tokens > 0, now < expiresAt {
                tokens -= 1
                return .admitted
            }
            let ticket = queue.enqueue((), priority: priority)
            guard fetcherID == nil else { return .queued(ticket: ticket, startsFetcher: false) }
            fetcherID = ticket
            return .queued(ticket: ticket, startsFetcher: true)
        }

        /// Whether nobody waits and no fetcher runs: forgetting it loses at most its leased tokens.
        var isIdle: Bool { queue.isEmpty && fetcherID == nil && fellBack.isEmpty }

        mutating func endFetcher() {
            fetcherID = nil
            fetcher = nil
            fetcherSleeps = false
        }

        /// Takes a lease's outcome: admits what it can.
        /// - Returns: The continuations to resume, and how long to sleep before the next lease
        ///   (`nil`: the fetcher ends).
        mutating func receive(
            _ result: Result<RateLimitGrant, SwitchyardError>, at now: Duration, sharing: RateLimitSharing
        ) -> ([LimiterQueue<Void>.Continuation], Duration?) {
            var admitted: [LimiterQueue<Void>.Continuation] = []
            switch result {
            case .failure(let error):
                failure = (error, now + sharing.retryInterval)
                while let ticket = queue.first, let entry = queue.admit(ticket) {
                    fellBack[ticket] = error
                    if let continuation = entry.continuation { admitted.append(continuation) }
                }
                endFetcher()
                return (admitted, nil)
            case .success(let grant):
                tokens = grant.tokens
                expiresAt = now + sharing.leaseLifetime
                while tokens > 0, let ticket = queue.first, let entry = queue.admit(ticket) {
                    tokens -= 1
                    if let continuation = entry.continuation { admitted.append(continuation) }
                }
                guard !queue.isEmpty else {
                    endFetcher()
                    return (admitted, nil)
                }
                fetcherSleeps = true
                return (admitted, grant.nextTokenIn)
            }
        }
    }
}
