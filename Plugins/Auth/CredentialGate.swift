import SwitchyardCore

/// The credential state one ``AuthPlugin`` shares between all its requests: the current credential
/// and its version, the single refresh in flight, and the requests waiting for it.
///
/// Versions start at 1 and grow by one whenever the credential changes: after a refresh, or when
/// the provider's ``CredentialProvider/current()`` returns another credential than the last one.
///
/// Rules (every decision is taken under one lock, so a refresh cannot end between a request's
/// decision to wait and its registration as a waiter):
/// - a request starting while a refresh runs waits for it;
/// - a 401 on an older version than the current one replays with the current one, no refresh;
/// - a 401 on the current version while no refresh runs starts the one refresh; all others wait;
/// - a 401 on a version whose refresh already failed fails at once (no second refresh for a
///   credential known to be dead); a new credential from the provider starts over.
/// - a wait ends with the refresh, with the waiting task's cancellation, or at its deadline.
final class CredentialGate: Sendable {
    /// A credential and the version the gate gave it.
    struct Versioned: Sendable {
        let credential: BearerCredential
        let version: UInt64
    }

    private typealias Waiter = CheckedContinuation<Versioned, any Error>

    private struct State {
        var current: Versioned?
        var nextVersion: UInt64 = 1
        /// Bumped when a refresh starts or ends, so a provider answer that raced it is not trusted.
        var generation: UInt64 = 0
        var refreshing = false
        /// The version whose refresh failed, until the credential changes.
        var failedVersion: UInt64?
        var failure: SwitchyardError?
        var refreshCount = 0
        var waiters: [UInt64: Waiter] = [:]
        var timers: [UInt64: Task<Void, Never>] = [:]
        var nextWaiterID: UInt64 = 0
    }

    /// What a request does, decided under the lock.
    private enum Decision {
        case use(Versioned)
        case fail(SwitchyardError)
        case wait
        case startRefresh(BearerCredential)
    }

    private let provider: any CredentialProvider
    private let state = Lock(State())

    init(provider: any CredentialProvider) {
        self.provider = provider
    }

    /// The identity of the current credential, `nil` before the first request or when unknown.
    var identity: String? { state.withLock { $0.current?.credential.identity } }
    /// The current credential's version, `nil` before the first request.
    var version: UInt64? { state.withLock { $0.current?.version } }
    /// Requests waiting for a refresh right now.
    var waitingCount: Int { state.withLock { $0.waiters.count } }
    /// Refreshes started so far.
    var refreshCount: Int { state.withLock { $0.refreshCount } }

    // MARK: - Requests

    /// The credential to sign a new request with: waits while a refresh runs, else asks the provider.
    /// - Throws: ``SwitchyardError/Kind/unauthorized`` (no credential, refresh failed),
    ///   ``SwitchyardError/Kind/cancelled`` or ``SwitchyardError/Kind/timeout`` while waiting.
    func credentialForRequest(deadline: ContinuousClock.Instant?) async throws -> Versioned {
        while true {
            let generation = state.withLock { $0.refreshing ? nil : $0.generation }
            guard let generation else {
                return try await wait(deadline: deadline) { state in
                    if state.refreshing { return .wait }
                    // The refresh ended in between: its outcome is the current credential.
                    guard let current = state.current else {
                        return .fail(.unauthorized("The credential provider has no credential."))
                    }
                    return .use(current)
                }
            }
            let fresh = try await currentFromProvider()
            let chosen: Versioned? = state.withLock { state in
                guard state.generation == generation, !state.refreshing else { return nil }
                if let current = state.current, current.credential == fresh { return current }
                let versioned = Versioned(credential: fresh, version: state.nextVersion)
                state.nextVersion += 1
                state.current = versioned
                state.failedVersion = nil
                return versioned
            }
            if let chosen { return chosen }
            // A refresh started or ended while the provider answered: decide again.
        }
    }

    /// The credential to replay a request with after the server refused `rejected`.
    /// - Returns: The credential, and whether a refresh produced it.
    /// - Throws: As ``credentialForRequest(deadline:)``.
    func credentialAfterRejection(
        of rejected: Versioned, deadline: ContinuousClock.Instant?
    ) async throws -> (credential: Versioned, refreshed: Bool) {
        var refreshed = false
        let credential = try await wait(deadline: deadline) { state in
            if let current = state.current, current.version > rejected.version { return .use(current) }
            if state.refreshing {
                refreshed = true
                return .wait
            }
            if state.failedVersion == rejected.version, let failure = state.failure { return .fail(failure) }
            refreshed = true
            return .startRefresh(rejected.credential)
        }
        return (credential, refreshed)
    }

    // MARK: - Waiting

    /// Decides under the lock and, unless the decision is final, waits for the refresh's outcome.
    private func wait(
        deadline: ContinuousClock.Instant?, _ decide: (inout State) -> Decision
    ) async throws -> Versioned {
        if let deadline, ContinuousClock.now >= deadline { throw SwitchyardError.timedOut(Self.waitDetail) }
        let id = state.withLock { state in
            defer { state.nextWaiterID += 1 }
            return state.nextWaiterID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Waiter) in
                let decision: Decision = state.withLock { state in
                    // Checked under the lock: a cancellation handler that ran before registration
                    // found no waiter, so the flag, already set, is seen here.
                    if Task.isCancelled { return .fail(.cancelled) }
                    let decision = decide(&state)
                    switch decision {
                    case .use, .fail: break
                    case .wait:
                        state.waiters[id] = continuation
                    case .startRefresh:
                        state.waiters[id] = continuation
                        state.refreshing = true
                        state.generation += 1
                        state.refreshCount += 1
                    }
                    return decision
                }
                switch decision {
                case .use(let credential): continuation.resume(returning: credential)
                case .fail(let error): continuation.resume(throwing: error)
                case .wait: armTimer(id, deadline: deadline)
                case .startRefresh(let stale):
                    armTimer(id, deadline: deadline)
                    startRefresh(stale)
                }
            }
        } onCancel: {
            resume(id, with: .failure(SwitchyardError.cancelled))
        }
    }

    private static let waitDetail = "It was waiting for the credential to be refreshed."

    /// Ends waiter `id` at `deadline` unless the refresh or a cancellation ends it first.
    private func armTimer(_ id: UInt64, deadline: ContinuousClock.Instant?) {
        guard let deadline else { return }
        let timer = Task { [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            guard !Task.isCancelled else { return }
            self?.resume(id, with: .failure(SwitchyardError.timedOut(Self.waitDetail)))
        }
        let stillWaiting = state.withLock { state in
            guard state.waiters[id] != nil else { return false }
            state.timers[id] = timer
            return true
        }
        if !stillWaiting { timer.cancel() }
    }

    /// Resumes waiter `id`, if it still waits.
    private func resume(_ id: UInt64, with result: Result<Versioned, any Error>) {
        let (waiter, timer) = state.withLock { ($0.waiters.removeValue(forKey: id), $0.timers.removeValue(forKey: id)) }
        timer?.cancel()
        waiter?.resume(with: result)
    }

    // MARK: - Refreshing

    /// Runs the one refresh in its own task, so cancelling the request that started it does not
    /// cancel it for the others.
    private func startRefresh(_ stale: BearerCredential) {
        let provider = provider
        Task {
            let result: Result<BearerCredential, any Error>
            do {
                result = .success(try await provider.refresh(stale: stale))
            } catch {
                result = .failure(error)
            }
            finishRefresh(result)
        }
    }

    /// Publishes the refresh's outcome to every waiter.
    private func finishRefresh(_ result: Result<BearerCredential, any Error>) {
        let (outcome, waiters, timers) = state.withLock { state in
            state.refreshing = false
            state.generation += 1
            let outcome: Result<Versioned, any Error>
            switch result {
            case .success(let credential):
                let versioned = Versioned(credential: credential, version: state.nextVersion)
                state.nextVersion += 1
                state.current = versioned
                state.failedVersion = nil
                state.failure = nil
                outcome = .success(versioned)
            case .failure(let error):
                let failure = SwitchyardError.unauthorized(
                    "The server refused the credential and refreshing it failed.", underlyingError: error)
                state.failedVersion = state.current?.version
                state.failure = failure
                outcome = .failure(failure)
            }
            defer {
                state.waiters = [:]
                state.timers = [:]
            }
            return (outcome, Array(state.waiters.values), Array(state.timers.values))
        }
        for timer in timers { timer.cancel() }
        for waiter in waiters { waiter.resume(with: outcome) }
    }

    /// The provider's current credential; its failure becomes ``SwitchyardError/Kind/unauthorized``.
    private func currentFromProvider() async throws -> BearerCredential {
        do {
            return try await provider.current()
        } catch let error as SwitchyardError {
            throw error
        } catch is CancellationError {
            throw SwitchyardError.cancelled
        } catch {
            throw SwitchyardError.unauthorized("The credential provider has no credential.", underlyingError: error)
        }
    }
}
