import HTTPTypes
public import SwitchyardCore
import SwitchyardStandardLinks

/// The token buckets and queues behind ``RateLimits``, shared by every exchange of a client.
///
/// ```swift
/// let limiter = RateLimiter(requestsPerSecond: 2, burst: 4)
/// var configuration = ClientConfiguration()
/// configuration.plugins.append(.rateLimit(limiter))
/// ```
///
/// Time is read from a clock, `ContinuousClock` unless one is given: a test passes a clock it
/// moves by hand, so the buckets refill exactly when the test says.
///
/// While a bucket has queued requests, one task sleeps until its next token is due and then hands
/// it to the first of them; it ends when the queue empties (the last queued request cancelled
/// included). A request that finds a token and an empty queue takes it at once: no task, no sleep.
///
/// With ``RateLimitSharing``, the tokens come from a ``RateLimitLedger`` every process of a fleet
/// shares, leased in blocks (see ``RateLimitSharing``); the buckets here serve only as the fallback
/// while the ledger cannot answer, and a `Retry-After` hold holds the ledger's bucket for the fleet.
///
/// Cost: a request outside the scope pays a scope check (nothing with `RequestScope.all`); one
/// inside reads the clock once and takes a lock once, and looks its bucket up by the host string
/// the request already holds (by none with ``RateLimits/Keying/shared``). Memory: one small record
/// per host seen; past 1,000 hosts, idle full buckets are forgotten (a full bucket is the same as
/// a new one).
public final class RateLimiter: Sendable {
    /// Buckets kept before idle full ones are forgotten.
    static let maxTrackedBuckets = 1000
    /// How far below a whole token a bucket may be and still give one: floating-point refills land
    /// a hair short of the exact count.
    static let tokenTolerance = 1e-9

    /// The limits this limiter enforces.
    public let limits: RateLimits
    /// Whether the scope is `.all`, so that no request needs a scope check.
    let limitsEveryRequest: Bool
    private let rate: Double
    private let burst: Double
    private let clock: LimiterClock
    private let state = Lock(State())
    /// The fleet's buckets, when shared (``RateLimitSharing``).
    private let leased: LeasedBuckets?
    /// How the buckets are shared with a fleet, if they are.
    public let sharing: RateLimitSharing?

    /// Creates a limiter whose buckets are all full.
    /// - Parameters:
    ///   - limits: The rate, burst, keying and scope.
    ///   - sharing: Takes the tokens from buckets a fleet of processes shares (a
    ///     ``RateLimitLedger``) instead of this process's own; `nil` (the default) keeps them here.
    ///   - clock: The clock the buckets refill by; a test passes one it moves by hand.
    public init(limits: RateLimits, sharing: RateLimitSharing? = nil, clock: some Clock<Duration> = ContinuousClock()) {
        // Clamped again: the properties of `limits` are settable after its initialiser.
        let normalised = RateLimits(
            requestsPerSecond: limits.requestsPerSecond, burst: limits.burst, keying: limits.keying, scope: limits.scope,
            maxRetryAfterHold: limits.maxRetryAfterHold)
        self.limits = normalised
        self.limitsEveryRequest = normalised.scope == .all
        self.rate = normalised.requestsPerSecond
        self.burst = Double(normalised.burst)
        self.clock = LimiterClock(clock)
        self.sharing = sharing
        self.leased = sharing.map { LeasedBuckets(sharing: $0, limits: normalised, clock: LimiterClock(clock)) }
    }

    /// Creates a limiter whose buckets are all full.
    /// - Parameters:
    ///   - requestsPerSecond: The sustained rate.
    ///   - burst: The most requests let through at once after a quiet spell.
    ///   - keying: One bucket per host, or one for the scope.
    ///   - scope: The requests the limit applies to.
    ///   - clock: The clock the buckets refill by.
    public convenience init(
        requestsPerSecond: Double, burst: Int, keying: RateLimits.Keying = .host, scope: RequestScope = .all,
        clock: some Clock<Duration> = ContinuousClock()
    ) {
        self.init(
            limits: RateLimits(requestsPerSecond: requestsPerSecond, burst: burst, keying: keying, scope: scope), clock: clock)
    }

    /// Requests waiting for a token now, in every bucket.
    public var queued: Int {
        state.withLock { $0.buckets.values.reduce(0) { $0 + $1.queue.count } }
    }

    /// The tokens the bucket of `host` holds now (fractions included): `burst` for a host never seen.
    /// - Parameter host: The host as requests name it, e.g. `api.example.com` or `127.0.0.1:8080`
    ///   (case does not matter); ignored with ``RateLimits/Keying/shared``.
    /// - Returns: The tokens, between 0 and ``RateLimits/burst``.
    public func availableTokens(forHost host: String) -> Double {
        let key = limits.keying == .shared ? "" : host.lowercased()
        let now = clock.now()
        return state.withLock { state in
            guard var bucket = state.buckets[key] else { return burst }
            bucket.refill(at: now, rate: rate, burst: burst)
            return max(0, bucket.tokens)
        }
    }

    // MARK: - Used by the interceptor

    /// The bucket a request with this head takes its token from.
    func key(for request: HTTPRequest) -> String {
        limits.keying == .shared ? "" : HostKey.of(request)
    }

    /// What a request did when the fleet's ledger could not answer.
    struct LedgerFallback {
        /// The ledger's failure.
        let error: SwitchyardError
        /// Whether this request is the first to meet it (it publishes ``RateLimitLedgerFailed``).
        let reports: Bool
        /// Whether the request is refused (``RateLimitSharing/Fallback/refuse``) rather than let
        /// through by the local buckets.
        let refused: Bool
    }

    /// Takes a token from the bucket `key` — a leased one from the fleet's ledger when shared —
    /// waiting in its queue when there is none (or when others wait already).
    /// - Parameters:
    ///   - key: The bucket (``key(for:)``).
    ///   - priority: The request's priority.
    ///   - deadline: The exchange's deadline: the wait ends with `timeout` there.
    ///   - queued: Called once if the exchange has to wait, before it waits.
    /// - Returns: `nil`, or what the request did because the fleet's ledger failed.
    /// - Throws: `SwitchyardError.Kind.cancelled` or `SwitchyardError.Kind.timeout` while queued.
    func acquire(
        key: String, priority: RequestPriority, deadline: ContinuousClock.Instant?, queued: () -> Void
    ) async throws(SwitchyardError) -> LedgerFallback? {
        guard let leased, let sharing else {
            try await acquireLocally(key: key, priority: priority, deadline: deadline, queued: queued)
            return nil
        }
        guard let (failure, reports) = try await leased.acquire(key: key, priority: priority, deadline: deadline, queued: queued)
        else { return nil }
        guard sharing.fallback == .localBuckets else { return LedgerFallback(error: failure, reports: reports, refused: true) }
        try await acquireLocally(key: key, priority: priority, deadline: deadline, queued: queued)
        return LedgerFallback(error: failure, reports: reports, refused: false)
    }

    /// Takes a token from this process's bucket `key`, waiting in its queue when there is none.
    private func acquireLocally(
        key: String, priority: RequestPriority, deadline: ContinuousClock.Instant?, queued: () -> Void
    ) async throws(SwitchyardError) {
        let now = clock.now()
        let (ticket, pump) = state.withLock { state in
            state.takeOrEnqueue(key, at: now, priority: priority, rate: rate, burst: burst)
        }
        guard let ticket else { return }
        if let pump { startPump(key, id: pump) }
        queued()
        let perSecond = Self.describe(rate)
        let failure = await LimiterQueue<Void>.wait(
            deadline: deadline,
            timeout: .timedOut("It was still waiting for the rate limit (\(perSecond) requests per second) to let it go."),
            park: { continuation in
                state.withLock { state in
                    // A bucket with a queued ticket is never forgotten; a missing one means the ticket is gone.
                    guard state.buckets[key] != nil else { return .init(error: .cancelled) }
                    return state.buckets[key]?.queue.park(ticket, continuation)
                }
            },
            abandon: { [weak self] error in self?.abandon(ticket, key: key, with: error) })
        if let failure { throw failure }
    }

    /// How long `response` holds its bucket: its `Retry-After`, at most
    /// ``RateLimits/maxRetryAfterHold``, when it is a `429` or `503` carrying a valid one.
    func hold(askedBy response: HTTPResponse) -> Duration? {
        let code = response.status.code
        guard code == 429 || code == 503, let maxHold = limits.maxRetryAfterHold,
            let value = response.headerFields[.retryAfter], let asked = RetryAfter.delay(from: value)
        else { return nil }
        return min(asked, maxHold)
    }

    /// Holds bucket `key` for `duration`: its next token comes due then, whatever it held. A pump
    /// sleeping for an earlier token finds none when it wakes and sleeps on until this one. A shared
    /// limiter holds the fleet's bucket too, and returns once the ledger has it.
    func hold(_ key: String, for duration: Duration) async {
        let now = clock.now()
        state.withLock { state in
            state.buckets[key, default: Bucket(full: burst, at: now)].hold(for: duration, at: now, rate: rate, burst: burst)
        }
        await leased?.hold(key, for: duration)
    }

    /// Starts the task that hands out the tokens of bucket `key` to its queue.
    private func startPump(_ key: String, id: UInt64) {
        // Detached: it serves every queued request of the bucket, so it takes neither the priority
        // nor the task-local values (a trace span) of the request that happened to start it.
        let task = Task.detached { [weak self] in
            guard let self else { return }
            await self.pump(key, id: id)
        }
        let orphaned = state.withLock { state in
            guard state.buckets[key]?.pump?.id == id else { return true }
            state.buckets[key]?.pump?.task = task
            return false
        }
        // Stopped (its queue emptied) before it could be stored: nobody else can cancel it.
        if orphaned { task.cancel() }
    }

    /// Hands tokens to the queue of bucket `key` as they come due, until the queue is empty or the
    /// pump is stopped.
    private func pump(_ key: String, id: UInt64) async {
        while true {
            let now = clock.now()
            let (granted, next): ([LimiterQueue<Void>.Continuation], Duration?) = state.withLock { state in
                guard state.buckets[key]?.pump?.id == id else { return ([], nil) }
                return state.buckets[key]?.grant(at: now, rate: rate, burst: burst) ?? ([], nil)
            }
            for continuation in granted { continuation.resume(returning: nil) }
            guard let next else { return }
            do {
                try await clock.sleep(next)
            } catch {
                return  // stopped: the queue emptied
            }
        }
    }

    /// Takes a queued exchange out of its bucket's queue with `error`, unless it already got its
    /// token; stops the bucket's pump when its queue is empty.
    private func abandon(_ ticket: UInt64, key: String, with error: SwitchyardError) {
        let (continuation, stopped) = state.withLock { state -> (LimiterQueue<Void>.Continuation?, Task<Void, Never>?) in
            let continuation = state.buckets[key]?.queue.abandon(ticket, with: error)
            guard state.buckets[key]?.queue.isEmpty == true, let pump = state.buckets[key]?.pump else { return (continuation, nil) }
            state.buckets[key]?.pump = nil
            return (continuation, pump.task)
        }
        stopped?.cancel()
        continuation?.resume(returning: error)
    }

    /// A rate for messages: `2`, `0.5`, `0.001`.
    static func describe(_ rate: Double) -> String {
        rate == rate.rounded() && rate < 1e15 ? String(Int64(rate)) : String(rate)
    }
}

extension RateLimiter {
    /// The task handing out one bucket's tokens.
    struct Pump {
        let id: UInt64
        var task: Task<Void, Never>?
    }

    /// One token bucket and the requests waiting for it.
    struct Bucket {
        /// Tokens now (as of ``refilledAt``); may be a hair below zero (``RateLimiter/tokenTolerance``).
        var tokens: Double
        /// When ``tokens`` was last brought up to date, on the limiter's clock.
        var refilledAt: Duration
        var queue = LimiterQueue<Void>()
        var pump: Pump?

        init(full burst: Double, at now: Duration) {
            tokens = burst
            refilledAt = now
        }

        /// Adds the tokens gained since ``refilledAt``, up to `burst`.
        mutating func refill(at now: Duration, rate: Double, burst: Double) {
            guard now > refilledAt else { return }
            tokens = min(burst, tokens + seconds(now - refilledAt) * rate)
            refilledAt = now
        }

        /// Empties the bucket so that its next token comes due `duration` after `now` (unless it
        /// is due later already).
        mutating func hold(for duration: Duration, at now: Duration, rate: Double, burst: Double) {
            refill(at: now, rate: rate, burst: burst)
            tokens = min(tokens, 1 - seconds(duration) * rate)
        }

        /// Whether a whole token is there.
        var hasToken: Bool { tokens >= 1 - RateLimiter.tokenTolerance }

        /// Hands tokens to queued exchanges, first come first served within a priority.
        /// - Returns: The continuations to resume, and when the next token is due (on the limiter's
        ///   clock), or `nil` when the queue is empty (the pump then ends).
        mutating func grant(at now: Duration, rate: Double, burst: Double) -> ([LimiterQueue<Void>.Continuation], Duration?) {
            refill(at: now, rate: rate, burst: burst)
            var granted: [LimiterQueue<Void>.Continuation] = []
            while hasToken, let ticket = queue.first, let admitted = queue.admit(ticket) {
                tokens -= 1
                if let continuation = admitted.continuation { granted.append(continuation) }
            }
            guard !queue.isEmpty else {
                pump = nil
                return (granted, nil)
            }
            // At least a nanosecond ahead: a wait rounded to zero would spin without refilling.
            return (granted, refilledAt + max(.nanoseconds(1), .seconds((1 - tokens) / rate)))
        }

        /// Whether this bucket is the same as a new one: full, nobody queued, no pump.
        func isIdle(at now: Duration, rate: Double, burst: Double) -> Bool {
            guard queue.isEmpty, pump == nil else { return false }
            var refilled = self
            refilled.refill(at: now, rate: rate, burst: burst)
            return refilled.tokens >= burst
        }

        private func seconds(_ duration: Duration) -> Double {
            let (seconds, attoseconds) = duration.components
            return Double(seconds) + Double(attoseconds) * 1e-18
        }
    }

    /// The buckets, guarded by the limiter's mutex.
    struct State {
        var buckets: [String: Bucket] = [:]
        var nextPump: UInt64 = 0

        /// Takes a token from bucket `key` when it has one and nobody waits; otherwise queues the
        /// exchange.
        /// - Returns: `nil` and `nil` when a token was taken; else the exchange's ticket, and the id of
        ///   a pump to start when the bucket had none.
        mutating func takeOrEnqueue(
            _ key: String, at now: Duration, priority: RequestPriority, rate: Double, burst: Double
        ) -> (ticket: UInt64?, pump: UInt64?) {
            if buckets.count >= RateLimiter.maxTrackedBuckets, buckets[key] == nil {
                buckets = buckets.filter { !$0.value.isIdle(at: now, rate: rate, burst: burst) }
            }
            nextPump += 1
            let id = nextPump
            return buckets[key, default: Bucket(full: burst, at: now)].takeOrEnqueue(
                at: now, priority: priority, rate: rate, burst: burst, pump: id)
        }
    }
}

extension RateLimiter.Bucket {
    /// See ``RateLimiter/State/takeOrEnqueue(_:at:priority:rate:burst:)``; `id` names the pump
    /// started if this bucket has none.
    fileprivate mutating func takeOrEnqueue(
        at now: Duration, priority: RequestPriority, rate: Double, burst: Double, pump id: UInt64
    ) -> (ticket: UInt64?, pump: UInt64?) {
        refill(at: now, rate: rate, burst: burst)
        if queue.isEmpty, hasToken {
            tokens -= 1
            return (nil, nil)
        }
        let ticket = queue.enqueue((), priority: priority)
        guard pump == nil else { return (ticket, nil) }
        pump = RateLimiter.Pump(id: id, task: nil)
        return (ticket, id)
    }
}

/// A clock as the limiter uses it: offsets from the moment the limiter was made.
struct LimiterClock: Sendable {
    /// The time since the limiter was made.
    let now: @Sendable () -> Duration
    /// Sleeps until that offset, or throws when the task is cancelled.
    let sleep: @Sendable (Duration) async throws -> Void

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        if let start = origin as? ContinuousClock.Instant {
            // A cancelled `Task.sleep` keeps its timer until it would have fired; this one releases it.
            sleep = { offset in try await sleepReleasingTimerOnCancel(until: start.advanced(by: offset)) }
        } else {
            sleep = { offset in try await clock.sleep(until: origin.advanced(by: offset), tolerance: nil) }
        }
    }
}
