import SwitchyardCore

/// One exchange shared by every caller that asked for the same key while it waited for its head
/// (see ``CoalescingPolicy`` for the rules).
///
/// The exchange runs in a task of its own (``start(_:next:)``), so no caller's cancellation ends it
/// for the others; it is cancelled when its last caller leaves. Callers are numbered by their
/// position (`token`); the leader is 0 and its context is the one the rest of the chain runs with.
final class SharedExchange: Sendable {
    let key: CoalescingKey
    /// The first caller's context: the shared exchange runs with it.
    let leader: ExchangeContext
    let maxBufferedBytesPerCaller: Int
    private let registry: CoalescingRegistry
    let state: Lock<SharedExchangeState>

    init(key: CoalescingKey, leader: ExchangeContext, registry: CoalescingRegistry, maxBufferedBytesPerCaller: Int) {
        self.key = key
        self.leader = leader
        self.registry = registry
        self.maxBufferedBytesPerCaller = maxBufferedBytesPerCaller
        self.state = Lock(SharedExchangeState(leader: leader, maxBufferedBytesPerCaller: maxBufferedBytesPerCaller))
    }

    /// Adds a caller while the exchange waits for its head and still has callers, and only if the
    /// exchange's deadline (the leader's) ends no later than the caller's own: a caller never waits
    /// past its deadline for someone else's exchange.
    /// - Returns: The caller's token, or `nil` when the exchange does not accept this caller.
    func add(_ context: ExchangeContext) -> Int? {
        if let own = context.deadline {
            guard let shared = leader.deadline, shared <= own else { return nil }
        }
        return state.withLock { state in
            guard state.phase == .waitingForHead, state.live > 0 else { return nil }
            state.callers.append(SharedExchangeState.Caller(context: context))
            state.live += 1
            return state.callers.count - 1
        }
    }

    /// Runs the rest of the chain for the leader's `request`, in a task owned by this exchange.
    ///
    /// Where the platform has `Task.immediate`, the task starts on the leader's thread and runs until
    /// it first suspends: an exchange answered from memory completes without a thread hop.
    func start(_ request: Request, next: Next) {
        let operation: @Sendable () async -> Void = { await self.run(request, next: next) }
        let task = Task.startingImmediately(operation)
        let everyoneLeft = state.withLock { state in
            state.task = task
            return state.live == 0 && state.phase != .ended
        }
        if everyoneLeft { task.cancel() }
    }

    private func run(_ request: Request, next: Next) async {
        let result: Result<Response, SwitchyardError>
        do {
            result = .success(try await next(request))
        } catch {
            result = .failure(error)
        }
        guard let body = deliver(result) else { return }
        await fanOut(body)
    }

    /// Hands every attached caller its response: the shared failure; the same in-memory body; the
    /// body itself when one caller is left; otherwise a body of its own fed by ``fanOut(_:)``.
    /// - Returns: The body to fan out, if any.
    private func deliver(_ result: Result<Response, SwitchyardError>) -> HTTPBody? {
        typealias Waiter = (UnsafeContinuation<Response, any Error>, Result<Response, SwitchyardError>)
        let (waiters, followers, shared) = state.withLock { state -> ([Waiter], [ExchangeContext], HTTPBody?) in
            if state.callers.count == 1 {
                // Nobody joined (the uncontended case): the leader, if still there, gets the response as is.
                state.phase = .ended
                guard state.callers[0].status == .attached else { return ([], [], nil) }
                guard let waiter = state.callers[0].headWaiter.take() else {
                    state.callers[0].delivery = result
                    return ([], [], nil)
                }
                return ([(waiter, result)], [], nil)
            }
            let attached = state.callers.indices.filter { state.callers[$0].status == .attached }
            var shared: HTTPBody?
            let make: (Int) -> Result<Response, SwitchyardError>
            state.phase = .ended
            switch result {
            case .failure:
                make = { _ in result }
            case .success(let response):
                if let body = response.body, let bytes = body.bufferedBytes {
                    make = { _ in .success(Response(response.head, body: HTTPBody(bytes))) }
                } else if let body = response.body, attached.count > 1 {
                    shared = body
                    state.phase = .streaming
                    make = { token in
                        .success(
                            Response(
                                response.head,
                                body: HTTPBody(
                                    CoalescedChunks(exchange: self, token: token), length: body.length, replayability: .singleUse)))
                    }
                } else {
                    make = { _ in result }
                }
            }
            var waiters: [Waiter] = []
            for token in attached {
                if let waiter = state.callers[token].headWaiter {
                    state.callers[token].headWaiter = nil
                    waiters.append((waiter, make(token)))
                } else {
                    state.callers[token].delivery = make(token)
                }
            }
            return (waiters, attached.filter { $0 != 0 }.map { state.callers[$0].context }, shared)
        }
        registry.remove(self)
        copyTimings(to: followers)
        for (waiter, response) in waiters { waiter.resume(with: response.mapError { $0 }) }
        return shared
    }

    /// What the leader's exchange recorded about the response (the transport's timings, plugins'
    /// values such as where it came from), into the followers' contexts.
    func copyTimings(to followers: [ExchangeContext]) {
        for context in followers { context.adoptResponseValues(of: leader) }
    }

    /// Waits for caller `token`'s response.
    /// - Throws: The shared exchange's failure, or ``SwitchyardError/Kind/cancelled`` when this
    ///   caller's task is cancelled (the exchange goes on for the others).
    func response(for token: Int) async throws(SwitchyardError) -> Response {
        // Fast path: the head is already there (an exchange answered from memory).
        if let ready = state.withLock({ $0.callers[token].delivery.take() }) { return try ready.get() }
        do {
            return try await withTaskCancellationHandler {
                try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Response, any Error>) in
                    let ready = state.withLock { state -> Result<Response, SwitchyardError>? in
                        if let delivery = state.callers[token].delivery {
                            state.callers[token].delivery = nil
                            return delivery
                        }
                        guard state.callers[token].status == .attached else { return .failure(.cancelled) }
                        state.callers[token].headWaiter = continuation
                        return nil
                    }
                    if let ready { continuation.resume(with: ready.mapError { $0 }) }
                }
            } onCancel: {
                leave(token)
            }
        } catch {
            throw .wrapping(error)
        }
    }

    /// Caller `token` is gone (cancelled, or its body dropped): ends its wait or read with
    /// ``SwitchyardError/Kind/cancelled``, and cancels the exchange if nobody is left.
    func leave(_ token: Int) {
        let left = state.withLock { state -> Left? in
            let status = state.callers[token].status
            guard status != .detached else { return nil }
            state.callers[token].status = .detached
            var left = Left()
            if status == .attached { state.live -= 1 }
            left.headWaiter = state.callers[token].headWaiter.take()
            left.reader = state.callers[token].reader.take()
            left.delivery = state.callers[token].delivery.take()
            state.callers[token].chunks = []
            state.callers[token].bufferedBytes = 0
            if state.live == 0, state.phase != .ended {
                left.lastOne = true
                left.task = state.task
                left.pump = state.pumpWaiter.take()
            }
            return left
        }
        // Resumed, cancelled and released outside the lock: a dropped delivery's body leaves again.
        guard let left else { return }
        left.headWaiter?.resume(throwing: SwitchyardError.cancelled)
        left.reader?.resume(throwing: SwitchyardError.cancelled)
        guard left.lastOne else { return }
        left.pump?.resume(returning: false)
        left.task?.cancel()
        registry.remove(self)
    }

    /// What a leaving caller releases.
    private struct Left {
        var headWaiter: UnsafeContinuation<Response, any Error>?
        var reader: UnsafeContinuation<ArraySlice<UInt8>?, any Error>?
        var delivery: Result<Response, SwitchyardError>?
        var lastOne = false
        var task: Task<Void, Never>?
        var pump: UnsafeContinuation<Bool, Never>?
    }
}
