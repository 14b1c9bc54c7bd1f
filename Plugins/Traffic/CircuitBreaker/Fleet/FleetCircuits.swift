import SwitchyardCore

/// A ``CircuitBreaker``'s link to the fleet's ``CircuitStateStore``: reads the fleet's view of a
/// host (when first met, then every ``CircuitSharing/refreshInterval``),
/// claims the fleet's probe, and reports failures and the successes that end a run of them.
final class FleetCircuits: Sendable {
    /// What a request learnt from the store, for its events.
    struct News {
        /// The breaker opened here because the fleet's view says so: for how long.
        var opened: Duration?
        /// The breaker closed here because the fleet's probe succeeded.
        var closed = false
        /// The store failed: what it said (reported once per ``CircuitSharing/retryInterval``).
        var storeFailure: String?
    }

    /// What the fleet said about a probe.
    enum ProbeDecision {
        case send
        case refuse(retryAfter: Duration)
    }

    private struct View {
        var readAt: ContinuousClock.Instant?
        var isReading = false
        /// The fleet's failures in a row when last heard.
        var failures = 0
    }

    private struct State {
        var views: [String: View] = [:]
        var unavailableUntil: ContinuousClock.Instant?
    }

    let sharing: CircuitSharing
    private let threshold: Int
    private let openDuration: Duration
    private let state = Lock(State())

    init(sharing: CircuitSharing, rules: CircuitRules) {
        self.sharing = sharing
        self.threshold = rules.consecutiveFailures ?? Int(Int32.max)
        self.openDuration = rules.openDuration
    }

    /// Before admission: the fleet's view of `key`, read and adopted by `breaker` when this process
    /// meets the key for the first time or last read it over a refresh interval ago (one request
    /// reads; those that meet the key meanwhile go on with the view they have).
    func look(at key: String, breaker: CircuitBreaker) async -> News {
        let now = breaker.clockNow()
        let reads = state.withLock { state -> Bool in
            if let until = state.unavailableUntil, now < until { return false }
            var view = state.views[key, default: View()]
            defer { state.views[key] = view }
            guard !view.isReading, view.readAt.map({ $0.duration(to: now) >= sharing.refreshInterval }) ?? true else { return false }
            view.isReading = true
            return true
        }
        return reads ? await read(key, breaker: breaker) : News()
    }

    /// Claims the fleet's probe for a call `breaker` let through as one.
    func claimProbe(_ key: String, breaker: CircuitBreaker) async -> (ProbeDecision, News) {
        guard isAvailable(breaker) else { return (.send, News()) }
        do {
            guard let view = try await sharing.store.claimProbe(of: key, for: openDuration) else { return (.send, News()) }
            remember(view, key, breaker)
            guard let openFor = view.openFor, openFor > .zero else { return (.send, News()) }
            let opened = breaker.adoptOpen(key, for: openFor)
            return (.refuse(retryAfter: openFor), News(opened: opened ? openFor : nil))
        } catch {
            return (.send, News(storeFailure: failed(error, breaker)))
        }
    }

    /// After an admitted call: counts its outcome in the fleet.
    func report(
        _ outcome: CircuitOutcome, key: String, ticket: CircuitTicket, openedHere: Bool, breaker: CircuitBreaker
    ) async -> News {
        guard outcome != .neutral, isAvailable(breaker) else { return News() }
        do {
            if outcome == .failure {
                let view = try await sharing.store.recordFailure(
                    of: key, opens: ticket.isProbe || openedHere, threshold: threshold, openDuration: openDuration)
                remember(view, key, breaker)
                guard let openFor = view.openFor, openFor > .zero, breaker.adoptOpen(key, for: openFor) else { return News() }
                return News(opened: openFor)
            }
            let endsRun = ticket.isProbe || state.withLock { ($0.views[key]?.failures ?? 0) > 0 }
            guard endsRun else { return News() }
            try await sharing.store.recordSuccess(of: key, isProbe: ticket.isProbe)
            state.withLock { $0.views[key]?.failures = 0 }
            return News()
        } catch {
            return News(storeFailure: failed(error, breaker))
        }
    }

    private func read(_ key: String, breaker: CircuitBreaker) async -> News {
        do {
            let view = try await sharing.store.state(of: key)
            remember(view, key, breaker)
            guard let openFor = view.openFor else { return News(closed: breaker.adoptClosed(key)) }
            guard openFor > .zero, breaker.adoptOpen(key, for: openFor) else { return News() }
            return News(opened: openFor)
        } catch {
            state.withLock { $0.views[key]?.isReading = false }
            return News(storeFailure: failed(error, breaker))
        }
    }

    private func remember(_ view: SharedCircuit, _ key: String, _ breaker: CircuitBreaker) {
        let now = breaker.clockNow()
        state.withLock { state in
            state.views[key, default: View()].failures = view.failures
            state.views[key]?.readAt = now
            state.views[key]?.isReading = false
        }
    }

    private func isAvailable(_ breaker: CircuitBreaker) -> Bool {
        let now = breaker.clockNow()
        return state.withLock { state in state.unavailableUntil.map { now >= $0 } ?? true }
    }

    /// Leaves the store alone for the retry interval; returns the message to report, once.
    private func failed(_ error: any Error, _ breaker: CircuitBreaker) -> String? {
        let until = breaker.clockNow().advanced(by: sharing.retryInterval)
        let message = (error as? SwitchyardError)?.message ?? "\(type(of: error))"
        return state.withLock { state in
            if let current = state.unavailableUntil, current > breaker.clockNow() { return nil }
            state.unavailableUntil = until
            return message
        }
    }
}
