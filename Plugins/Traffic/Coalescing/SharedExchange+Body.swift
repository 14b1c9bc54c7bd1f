import SwitchyardCore
import Synchronization

extension SharedExchange {
    /// Reads the shared body at the pace of the fastest caller and hands each chunk to every
    /// attached caller; stops (dropping the body, which cancels the transfer) when nobody is left.
    func fanOut(_ body: HTTPBody) async {
        var chunks = body.makeAsyncIterator()
        while await mayPull() {
            let chunk: ArraySlice<UInt8>?
            do {
                chunk = try await chunks.next()
            } catch {
                return finish(.wrapping(error))
            }
            guard let chunk else { return finish(nil) }
            let readers = state.withLock { $0.distribute(chunk, limit: maxBufferedBytesPerCaller) }
            for reader in readers { reader.resume(returning: chunk) }
        }
    }

    /// Waits until some caller has read everything it was given (`true`) or nobody is left (`false`).
    private func mayPull() async -> Bool {
        if let ready = state.withLock({ $0.pullDecision() }) { return ready }
        return await withUnsafeContinuation { (continuation: UnsafeContinuation<Bool, Never>) in
            let ready = state.withLock { state -> Bool? in
                if let ready = state.pullDecision() { return ready }
                state.pumpWaiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// The shared body ended (`failure == nil`) or failed: parked readers get the outcome, the
    /// others after their buffered chunks.
    private func finish(_ failure: SwitchyardError?) {
        let (readers, followers) = state.withLock { state in
            state.phase = .ended
            state.failure = failure
            var readers: [UnsafeContinuation<ArraySlice<UInt8>?, any Error>] = []
            var followers: [ExchangeContext] = []
            for token in state.callers.indices where state.callers[token].status == .attached {
                if token != 0 { followers.append(state.callers[token].context) }
                if let reader = state.callers[token].reader.take() { readers.append(reader) }
            }
            return (readers, followers)
        }
        copyTimings(to: followers)
        for reader in readers {
            if let failure { reader.resume(throwing: failure) } else { reader.resume(returning: nil) }
        }
    }

    /// The next chunk of caller `token`'s body, `nil` at its end.
    /// - Throws: The shared body's failure; ``SwitchyardError/Kind/coalescedReaderTooSlow`` once the
    ///   caller was cut off; ``SwitchyardError/Kind/cancelled`` when its task is cancelled.
    func nextChunk(for token: Int) async throws -> ArraySlice<UInt8>? {
        // Fast path: a buffered chunk or the end, without a continuation or a cancellation handler.
        if let ready = try settle(state.withLock { $0.read(token) }) { return ready }
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<ArraySlice<UInt8>?, any Error>) in
                let read = state.withLock { state in
                    let read = state.read(token)
                    if case .park = read.read { state.callers[token].reader = continuation }
                    return read
                }
                do {
                    if let ready = try settle(read) { continuation.resume(returning: ready) }
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            leave(token)
        }
    }

    /// A read's answer: `.none` to park, `.some(nil)` at the end; lets the fan-out pull on when
    /// the read emptied the caller's buffer.
    private func settle(_ read: (read: SharedExchangeState.Read, pump: UnsafeContinuation<Bool, Never>?))
        throws(SwitchyardError) -> ArraySlice<UInt8>??
    {
        read.pump?.resume(returning: true)
        switch read.read {
        case .chunk(let chunk): return .some(chunk)
        case .end: return .some(nil)
        case .fail(let error): throw error
        case .park: return .none
        }
    }
}
