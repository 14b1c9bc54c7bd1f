import NIOCore
import SwitchyardCore
import Synchronization

/// What a connection's handler (on its event loop) and its ``WebSocket``'s callers share.
final class WebSocketState: Sendable {
    private struct State {
        var unread = 0
        var readingPaused = false
        var closeSent = false
        var closeCode: Int?
        var closeReason: String?
        var failed = false
    }

    let options: WebSocketOptions
    /// Whether the handshake agreed on permessage-deflate.
    let isCompressed: Bool
    let messages: AsyncThrowingStream<WebSocketMessage, any Error>
    private let continuation: AsyncThrowingStream<WebSocketMessage, any Error>.Continuation
    private let state = Mutex(State())
    private let pongWaiters = Mutex<[ReplySignal]>([])
    /// Fires when the server's close frame arrived or the connection ended.
    let ended = ReplySignal()

    init(options: WebSocketOptions, isCompressed: Bool) {
        self.options = options
        self.isCompressed = isCompressed
        (messages, continuation) = AsyncThrowingStream.makeStream(of: WebSocketMessage.self)
    }

    /// The close code and reason received from the server, if any.
    var closeStatus: (code: Int, reason: String)? {
        state.withLock { state in state.closeCode.map { ($0, state.closeReason ?? "") } }
    }

    /// Called when the stream's reader goes away (cancelled or done).
    func onReaderGone(_ action: @escaping @Sendable () -> Void) {
        continuation.onTermination = { termination in
            if case .cancelled = termination { action() }
        }
    }

    /// On the event loop: hands a message to the readers; pauses reading when too many wait.
    func deliver(_ message: WebSocketMessage, channel: any Channel) {
        continuation.yield(message)
        let pause = state.withLock { state in
            state.unread += 1
            guard state.unread >= options.bufferedMessages, !state.readingPaused else { return false }
            state.readingPaused = true
            return true
        }
        if pause { channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in } }
    }

    /// A reader took a message; reading resumes once half the buffer is free.
    func consumed(channel: any Channel) {
        let resume = state.withLock { state in
            state.unread -= 1
            guard state.readingPaused, state.unread <= options.bufferedMessages / 2 else { return false }
            state.readingPaused = false
            return true
        }
        if resume {
            channel.eventLoop.execute {
                channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in channel.read() }
            }
        }
    }

    /// Registers a wait for the next pong.
    func expectPong() -> ReplySignal {
        let signal = ReplySignal()
        pongWaiters.withLock { $0.append(signal) }
        return signal
    }

    func pongArrived() {
        for waiter in pongWaiters.withLock({ waiters in
            defer { waiters.removeAll() }
            return waiters
        }) { waiter.fire() }
    }

    /// Marks our close frame as sent; `false` if one was already sent (by us or as an echo).
    func markCloseSent() -> Bool {
        state.withLock { state in
            defer { state.closeSent = true }
            return !state.closeSent
        }
    }

    /// The server's close frame arrived; returns whether it must be echoed (we had not sent ours).
    func closeReceived(code: Int, reason: String) -> Bool {
        let mustEcho = state.withLock { state in
            state.closeCode = code
            state.closeReason = reason
            defer { state.closeSent = true }
            return !state.closeSent
        }
        continuation.finish()
        ended.fire()
        return mustEcho
    }

    /// The connection ended: without a close handshake that is an error for the readers.
    func connectionEnded() {
        let (received, sent, failed) = state.withLock { ($0.closeCode != nil, $0.closeSent, $0.failed) }
        if !received, !failed {
            if sent {
                continuation.finish()
            } else {
                continuation.finish(
                    throwing: SwitchyardError(
                        .webSocketClosed, "The WebSocket connection ended without a close handshake (1006, abnormal closure)."))
            }
        }
        ended.fire()
    }

    /// A protocol failure or a bound: the readers get `error`.
    func fail(_ error: SwitchyardError) {
        state.withLock { $0.failed = true }
        continuation.finish(throwing: error)
    }
}
