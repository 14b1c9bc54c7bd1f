import SwitchyardCore

/// Hands a streamed body from the task that reads the transport (the pump) to the caller's task,
/// one chunk at a time: the pump waits until the reader has taken the previous chunk, so nothing
/// piles up, and either side can end the relay — the reader by dropping the body or being
/// cancelled, the pump's owner by cancelling the pump.
///
/// Used by ``ExchangeTracker`` so that a streamed body is read inside a task the tracker can cancel.
final class BodyRelay: Sendable {
    private typealias Delivery = Result<ArraySlice<UInt8>?, SwitchyardError>

    private struct State {
        var chunk: ArraySlice<UInt8>?
        var end: Result<Void, SwitchyardError>?
        var reader: CheckedContinuation<Delivery, Never>?
        var writer: CheckedContinuation<Bool, Never>?
        var abandoned = false
        var onAbandon: (@Sendable () -> Void)?
    }

    private let state = Lock(State())

    /// Runs `action` once when the reader lets go (drops the body or is cancelled).
    func onAbandon(_ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state in
            if !state.abandoned { state.onAbandon = action }
            return state.abandoned
        }
        if runNow { action() }
    }

    // MARK: Pump side

    /// Passes `chunk` on and waits until the reader took it; `false` when the reader let go or the
    /// pump's task was cancelled (stop pumping).
    func put(_ chunk: ArraySlice<UInt8>) async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let (reader, accepted) = state.withLock { state -> (CheckedContinuation<Delivery, Never>?, Bool?) in
                    if state.abandoned || Task.isCancelled { return (nil, false) }
                    if let reader = state.reader {
                        state.reader = nil
                        return (reader, true)
                    }
                    state.chunk = chunk
                    state.writer = continuation
                    return (nil, nil)
                }
                reader?.resume(returning: .success(chunk))
                if let accepted { continuation.resume(returning: accepted) }
            }
        } onCancel: {
            let writer = state.withLock { state in
                defer {
                    state.writer = nil
                    state.chunk = nil
                }
                return state.writer
            }
            writer?.resume(returning: false)
        }
    }

    /// Ends the body: `.success` after the last chunk, or the failure the reader will see.
    func finish(_ end: Result<Void, SwitchyardError>) {
        let reader = state.withLock { state -> CheckedContinuation<Delivery, Never>? in
            guard state.end == nil else { return nil }
            state.end = end
            defer { state.reader = nil }
            return state.reader
        }
        reader?.resume(returning: end.map { nil })
    }

    // MARK: Reader side

    /// The next chunk, `nil` at the end.
    func next() async throws(SwitchyardError) -> ArraySlice<UInt8>? {
        let delivery = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Delivery, Never>) in
                let (ready, writer) = state.withLock { state -> (Delivery?, CheckedContinuation<Bool, Never>?) in
                    if let chunk = state.chunk {
                        state.chunk = nil
                        defer { state.writer = nil }
                        return (.success(chunk), state.writer)
                    }
                    if let end = state.end { return (end.map { nil }, nil) }
                    if state.abandoned { return (.failure(.cancelled), nil) }
                    state.reader = continuation
                    return (nil, nil)
                }
                writer?.resume(returning: true)
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            abandon()
        }
        return try delivery.get()
    }

    /// The reader lets go: a waiting reader gets `cancelled`, the pump is told to stop.
    func abandon() {
        let (reader, writer, action) = state.withLock { state in
            guard !state.abandoned else {
                return (
                    CheckedContinuation<Delivery, Never>?.none, CheckedContinuation<Bool, Never>?.none,
                    (@Sendable () -> Void)?.none
                )
            }
            state.abandoned = true
            defer {
                state.reader = nil
                state.writer = nil
                state.chunk = nil
                state.onAbandon = nil
            }
            return (state.reader, state.writer, state.onAbandon)
        }
        reader?.resume(returning: .failure(.cancelled))
        writer?.resume(returning: false)
        action?()
    }
}

/// The caller's side of a ``BodyRelay`` as a body; dropping it before its end abandons the relay.
struct RelayedChunks: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    let owner: Owner

    init(_ relay: BodyRelay) { self.owner = Owner(relay: relay) }

    struct AsyncIterator: AsyncIteratorProtocol {
        let owner: Owner
        mutating func next() async throws -> ArraySlice<UInt8>? { try await owner.relay.next() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(owner: owner) }

    /// Abandons the relay when the last reference to the body goes away.
    final class Owner: Sendable {
        let relay: BodyRelay
        init(relay: BodyRelay) { self.relay = relay }
        deinit { relay.abandon() }
    }
}
