import SwitchyardCore

/// The exchanges waiting in a limiter (``ConcurrencyLimiter``, ``RateLimiter``): tickets in
/// ``RequestPriority`` order (the highest first, the oldest first within one), each with the
/// continuation its exchange parked or the decision reached before it parked. Kept under its
/// limiter's lock; ``wait(deadline:timeout:park:abandon:)`` is the waiting side.
struct LimiterQueue<Payload: Sendable>: Sendable {
    /// How a parked exchange is woken: `nil` when it was admitted, else the error it fails with.
    typealias Continuation = CheckedContinuation<SwitchyardError?, Never>

    /// What a queued exchange has been told: admitted (`error == nil`) or to give up.
    struct Decision {
        let error: SwitchyardError?
    }

    /// One queued exchange.
    private struct Waiter {
        let payload: Payload
        let priority: RequestPriority
        var continuation: Continuation?
        var decision: Decision?
    }

    /// Queued tickets by priority (index = raw value), oldest first.
    private var queues: [[UInt64]] = [[], [], []]
    /// Tickets waiting, or decided but not yet picked up by their exchange.
    private var waiters: [UInt64: Waiter] = [:]
    private var nextTicket: UInt64 = 0
    /// Exchanges queued and not yet decided.
    private(set) var count = 0

    /// Whether no exchange is queued (decided ones not yet picked up do not count).
    var isEmpty: Bool { count == 0 }

    /// Queues an exchange; returns its ticket.
    mutating func enqueue(_ payload: Payload, priority: RequestPriority) -> UInt64 {
        nextTicket += 1
        queues[priority.rawValue].append(nextTicket)
        waiters[nextTicket] = Waiter(payload: payload, priority: priority)
        count += 1
        return nextTicket
    }

    /// Stores the continuation of a queued exchange, or returns its decision if one came first.
    mutating func park(_ ticket: UInt64, _ continuation: Continuation) -> Decision? {
        guard var waiter = waiters[ticket] else { return Decision(error: .cancelled) }
        if let decision = waiter.decision {
            waiters[ticket] = nil
            return decision
        }
        waiter.continuation = continuation
        waiters[ticket] = waiter
        return nil
    }

    /// Takes a waiting ticket out of the queue with `error`, unless it was already decided; returns
    /// its continuation to resume with `error`, if it is parked.
    mutating func abandon(_ ticket: UInt64, with error: SwitchyardError) -> Continuation? {
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

    /// The first queued ticket, in priority and then arrival order, whose payload `isRunnable`.
    func first(where isRunnable: (Payload) -> Bool) -> UInt64? {
        for queue in queues {
            for ticket in queue {
                guard let waiter = waiters[ticket] else { continue }
                if isRunnable(waiter.payload) { return ticket }
            }
        }
        return nil
    }

    /// The first queued ticket in priority and then arrival order.
    var first: UInt64? {
        for queue in queues {
            if let ticket = queue.first { return ticket }
        }
        return nil
    }

    /// Admits a queued ticket: takes it out of the queue and returns its payload and, if it is
    /// parked, its continuation (resume it with `nil`); an exchange not yet parked finds the
    /// admission when it parks.
    mutating func admit(_ ticket: UInt64) -> (payload: Payload, continuation: Continuation?)? {
        guard var waiter = waiters[ticket], waiter.decision == nil else { return nil }
        remove(ticket, priority: waiter.priority)
        if let continuation = waiter.continuation {
            waiters[ticket] = nil
            return (waiter.payload, continuation)
        }
        waiter.decision = Decision(error: nil)
        waiters[ticket] = waiter
        return (waiter.payload, nil)
    }

    private mutating func remove(_ ticket: UInt64, priority: RequestPriority) {
        if let index = queues[priority.rawValue].firstIndex(of: ticket) {
            queues[priority.rawValue].remove(at: index)
            count -= 1
        }
    }
}

extension LimiterQueue {
    /// Waits, as a queued exchange, for the decision on its ticket.
    ///
    /// A timer abandons the ticket with `timeout` at `deadline`, and the task's cancellation with
    /// `SwitchyardError.Kind.cancelled`; the timer is gone when this returns.
    /// - Parameters:
    ///   - deadline: The exchange's deadline, if any.
    ///   - timeout: The error for a deadline that passes while queued.
    ///   - park: Stores the continuation under the limiter's lock (``park(_:_:)``), returning the
    ///     decision if there already is one.
    ///   - abandon: Takes the ticket out with an error under the limiter's lock and resumes its
    ///     continuation if parked (``abandon(_:with:)``).
    /// - Returns: `nil` once admitted, or the error to fail with.
    static func wait(
        deadline: ContinuousClock.Instant?, timeout: @autoclosure @escaping @Sendable () -> SwitchyardError,
        park: (Continuation) -> Decision?, abandon: @escaping @Sendable (SwitchyardError) -> Void
    ) async -> SwitchyardError? {
        let timer = deadline.map { deadline in
            Task {
                try? await sleepReleasingTimerOnCancel(until: deadline)
                if !Task.isCancelled { abandon(timeout()) }
            }
        }
        defer { timer?.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if let decided = park(continuation) { continuation.resume(returning: decided.error) }
            }
        } onCancel: {
            abandon(.cancelled)
        }
    }
}
