import SwitchyardCore

/// One breaker's state machine: closed → open → half-open → closed (or open again).
///
/// Every transition starts a new ``generation``; an outcome reported with a ticket of an older
/// generation (a call admitted before the breaker opened, ending after it) is ignored, so a
/// breaker is moved only by the calls of its current phase.
struct HostCircuit {
    enum Phase {
        case closed
        case open(until: ContinuousClock.Instant)
        case halfOpen(inFlight: Int, succeeded: Int)
    }

    /// What a transition means to the exchange that caused it (it publishes the event).
    enum Transition: Equatable {
        case opened(retryAfter: Duration)
        case closed
    }

    private(set) var phase = Phase.closed
    private(set) var generation: UInt64 = 0
    private var window: OutcomeWindow
    private var consecutiveFailures = 0

    init(window: CircuitBreakerPolicy.Window) {
        self.window = OutcomeWindow(window)
    }

    /// The state at `now`: an open breaker whose cool-down is over reports `halfOpen`.
    func state(at now: ContinuousClock.Instant) -> CircuitState {
        switch phase {
        case .closed: .closed
        case .open(let until): now < until ? .open : .halfOpen
        case .halfOpen: .halfOpen
        }
    }

    /// Whether the breaker is closed with no failure in its window (safe to forget).
    var isIdle: Bool {
        if case .closed = phase { return window.failures == 0 && consecutiveFailures == 0 }
        return false
    }

    /// Lets a call through (as a probe when half-open), or refuses it: an open breaker whose
    /// cool-down is over turns half-open here.
    /// - Returns: The call's ticket, or the time until a probe may go (zero when probes are in flight).
    mutating func admit(at now: ContinuousClock.Instant, rules: CircuitRules) -> Result<CircuitTicket, RejectedCall> {
        switch phase {
        case .closed:
            return .success(CircuitTicket(generation: generation, isProbe: false))
        case .open(let until):
            guard now >= until else { return .failure(RejectedCall(retryAfter: now.duration(to: until))) }
            generation &+= 1
            phase = .halfOpen(inFlight: 0, succeeded: 0)
            return admit(at: now, rules: rules)
        case .halfOpen(let inFlight, let succeeded):
            guard inFlight + succeeded < max(1, rules.halfOpenProbes) else { return .failure(RejectedCall(retryAfter: .zero)) }
            phase = .halfOpen(inFlight: inFlight + 1, succeeded: succeeded)
            return .success(CircuitTicket(generation: generation, isProbe: true))
        }
    }

    /// Counts the outcome of an admitted call.
    /// - Returns: The transition it caused, if any.
    mutating func record(
        _ outcome: CircuitOutcome, ticket: CircuitTicket, at now: ContinuousClock.Instant, elapsed: Duration,
        rules: CircuitRules
    ) -> Transition? {
        guard ticket.generation == generation else { return nil }
        switch phase {
        case .open:
            return nil
        case .halfOpen(let inFlight, let succeeded):
            switch outcome {
            case .neutral:
                phase = .halfOpen(inFlight: inFlight - 1, succeeded: succeeded)
                return nil
            case .failure:
                return open(at: now, rules: rules)
            case .success:
                guard succeeded + 1 >= max(1, rules.halfOpenProbes) else {
                    phase = .halfOpen(inFlight: inFlight - 1, succeeded: succeeded + 1)
                    return nil
                }
                generation &+= 1
                phase = .closed
                window.reset()
                consecutiveFailures = 0
                return .closed
            }
        case .closed:
            switch outcome {
            case .neutral:
                return nil
            case .success:
                consecutiveFailures = 0
                window.record(failed: false, elapsed: elapsed)
                return nil
            case .failure:
                consecutiveFailures += 1
                window.record(failed: true, elapsed: elapsed)
                return trips(rules) ? open(at: now, rules: rules) : nil
            }
        }
    }

    /// Opens the breaker until `until` because the fleet's view says so (a later end extends an
    /// open breaker).
    /// - Returns: Whether it was not open before.
    mutating func adoptOpen(until: ContinuousClock.Instant) -> Bool {
        if case .open(let current) = phase {
            if until > current { phase = .open(until: until) }
            return false
        }
        generation &+= 1
        phase = .open(until: until)
        window.reset()
        consecutiveFailures = 0
        return true
    }

    /// Closes the breaker because the fleet's probe succeeded.
    /// - Returns: Whether it was not closed before.
    mutating func adoptClosed() -> Bool {
        if case .closed = phase { return false }
        generation &+= 1
        phase = .closed
        window.reset()
        consecutiveFailures = 0
        return true
    }

    private func trips(_ rules: CircuitRules) -> Bool {
        if let limit = rules.consecutiveFailures, consecutiveFailures >= max(1, limit) { return true }
        guard let threshold = rules.failureRateThreshold, window.calls >= max(1, rules.minimumCalls) else { return false }
        return Double(window.failures) >= threshold * Double(window.calls)
    }

    private mutating func open(at now: ContinuousClock.Instant, rules: CircuitRules) -> Transition {
        generation &+= 1
        phase = .open(until: now.advanced(by: rules.openDuration))
        window.reset()
        consecutiveFailures = 0
        return .opened(retryAfter: rules.openDuration)
    }
}

/// A call a breaker let through: the phase it belongs to, and whether it is a probe.
struct CircuitTicket {
    let generation: UInt64
    let isProbe: Bool
}

/// A call a breaker refused: how long until it lets a probe through.
struct RejectedCall: Error {
    let retryAfter: Duration
}

/// The numbers of a ``CircuitBreakerPolicy`` the state machine needs: a plain value, cheap to pass
/// (the policy itself holds sets and strings).
struct CircuitRules {
    let failureRateThreshold: Double?
    let minimumCalls: Int
    let consecutiveFailures: Int?
    let openDuration: Duration
    let halfOpenProbes: Int

    init(_ policy: CircuitBreakerPolicy) {
        failureRateThreshold = policy.failureRateThreshold
        minimumCalls = max(1, policy.minimumCalls)
        consecutiveFailures = policy.consecutiveFailures.map { max(1, $0) }
        openDuration = policy.openDuration
        halfOpenProbes = max(1, policy.halfOpenProbes)
    }
}
