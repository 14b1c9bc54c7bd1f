import SwitchyardCore

/// The state of one ``SharedExchange``, kept under its lock: the callers, each with its own body
/// buffer and parked continuations, and where the shared exchange stands.
///
/// Every continuation is taken out of the state under the lock and resumed outside it, exactly once.
struct SharedExchangeState {
    /// Where the shared exchange stands.
    enum Phase {
        /// Running the chain; callers may still join.
        case waitingForHead
        /// The head went out and the body is fanned out to two or more callers.
        case streaming
        /// Over: every caller has its response (and body, or the outcome of the fan-out).
        case ended
    }

    /// Whether a caller still takes part.
    enum Status {
        /// Waiting for the head or reading its body.
        case attached
        /// Cancelled, or its body dropped: it receives nothing more.
        case detached
        /// Fell more than the buffer limit behind: its next read fails.
        case cutOff
    }

    /// One caller of the shared exchange.
    struct Caller {
        let context: ExchangeContext
        var status = Status.attached
        /// Its response, when the head arrived before the caller parked to wait for it.
        var delivery: Result<Response, SwitchyardError>?
        var headWaiter: UnsafeContinuation<Response, any Error>?
        /// Chunks not read yet, from `nextChunk` on.
        var chunks: [ArraySlice<UInt8>] = []
        var nextChunk = 0
        var bufferedBytes = 0
        var reader: UnsafeContinuation<ArraySlice<UInt8>?, any Error>?

        init(context: ExchangeContext) { self.context = context }

        var hasBuffered: Bool { nextChunk < chunks.count }
    }

    /// What a caller's read gets.
    enum Read {
        case chunk(ArraySlice<UInt8>)
        case end
        case fail(SwitchyardError)
        case park
    }

    var phase = Phase.waitingForHead
    var callers: [Caller]
    /// Callers that are attached (neither detached nor cut off).
    var live = 1
    /// The task that runs the shared exchange, once started.
    var task: Task<Void, Never>?
    /// The fan-out waiting for a caller to empty its buffer (`true`: pull on, `false`: stop).
    var pumpWaiter: UnsafeContinuation<Bool, Never>?
    /// How the fan-out ended: `nil` cleanly (with ``Phase/ended``), else the failure.
    var failure: SwitchyardError?
    /// The per-caller buffer limit, for the error a cut-off caller's read throws.
    let limit: Int

    init(leader: ExchangeContext, maxBufferedBytesPerCaller: Int) {
        callers = [Caller(context: leader)]
        limit = maxBufferedBytesPerCaller
    }

    /// Whether the fan-out may pull the next chunk: `false` when nobody is left to read, `true`
    /// when some caller has read everything it was given, `nil` to wait for one.
    func pullDecision() -> Bool? {
        if live == 0 { return false }
        return callers.contains { $0.status == .attached && !$0.hasBuffered } ? true : nil
    }

    /// Takes the next chunk for caller `token`; also returns the fan-out's waiter when this read
    /// emptied the caller's buffer (the fan-out may then pull again).
    mutating func read(_ token: Int) -> (read: Read, pump: UnsafeContinuation<Bool, Never>?) {
        switch callers[token].status {
        case .detached: return (.fail(.cancelled), nil)
        case .cutOff: return (.fail(.coalescedReaderTooSlow(limit: limit)), nil)
        case .attached: break
        }
        guard callers[token].hasBuffered else {
            guard phase == .ended else { return (.park, nil) }
            return (failure.map(Read.fail) ?? .end, nil)
        }
        let chunk = callers[token].chunks[callers[token].nextChunk]
        callers[token].nextChunk += 1
        callers[token].bufferedBytes -= chunk.count
        guard !callers[token].hasBuffered else { return (.chunk(chunk), nil) }
        callers[token].chunks.removeAll(keepingCapacity: true)
        callers[token].nextChunk = 0
        defer { pumpWaiter = nil }
        return (.chunk(chunk), pumpWaiter)
    }

    /// Hands `chunk` to every attached caller: to its parked reader, or into its buffer — unless
    /// it already holds unread bytes and the chunk would take it past `limit`: then it is cut off.
    /// - Returns: The parked readers to resume with the chunk.
    mutating func distribute(_ chunk: ArraySlice<UInt8>, limit: Int) -> [UnsafeContinuation<ArraySlice<UInt8>?, any Error>] {
        var readers: [UnsafeContinuation<ArraySlice<UInt8>?, any Error>] = []
        for index in callers.indices where callers[index].status == .attached {
            if let reader = callers[index].reader {
                callers[index].reader = nil
                readers.append(reader)
                continue
            }
            let before = callers[index].bufferedBytes
            if before > 0, before + chunk.count > limit {
                callers[index].status = .cutOff
                callers[index].chunks = []
                callers[index].nextChunk = 0
                callers[index].bufferedBytes = 0
                live -= 1
            } else {
                callers[index].chunks.append(chunk)
                callers[index].bufferedBytes += chunk.count
            }
        }
        return readers
    }
}
