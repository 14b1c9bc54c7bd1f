public import HTTPTypes
import NIOCore
import NIOWebSocket
import SwitchyardCore

/// An open WebSocket connection (RFC 6455): its messages as an `AsyncSequence`, and ``send(_:)``,
/// ``ping(_:timeout:)`` and ``close(code:reason:)``.
///
/// Read it from one task. Messages arrive whole (fragments joined) up to
/// ``WebSocketOptions/maximumMessageBytes``; pings are answered by the connection; the sequence ends
/// when the server closes (``closeCode`` and ``closeReason`` say how) and throws
/// ``SwitchyardCore/SwitchyardError/Kind/webSocketClosed`` when the connection ends without a close
/// handshake. A reader that falls behind pauses reading from the socket. Cancelling the reading
/// task closes the connection with 1001 (going away).
public final class WebSocket: AsyncSequence, Sendable {
    /// A message.
    public typealias Element = WebSocketMessage

    /// The server's `101 Switching Protocols` head (`Sec-WebSocket-Protocol` and the like).
    public let handshake: HTTPResponse
    private let channel: any Channel
    private let state: WebSocketState

    init(channel: any Channel, state: WebSocketState, handshake: HTTPResponse) {
        self.channel = channel
        self.state = state
        self.handshake = handshake
        state.onReaderGone { [channel] in
            Self.sendClose(on: channel, code: 1001, reason: "", state: state)
            channel.close(promise: nil)
        }
    }

    /// Whether the server accepted permessage-deflate (``WebSocketOptions/compression``): messages
    /// are then compressed on the wire.
    public var isCompressed: Bool { state.isCompressed }

    /// The code of the server's close frame (1005 when it carried none), once it arrived.
    public var closeCode: Int? { state.closeStatus?.code }
    /// The reason of the server's close frame, once it arrived.
    public var closeReason: String? { state.closeStatus?.reason }

    /// Reads the messages.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: state.messages.makeAsyncIterator(), state: state, channel: channel)
    }

    /// Reads the messages and frees room in the connection's buffer as it goes.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<WebSocketMessage, any Error>.AsyncIterator
        let state: WebSocketState
        let channel: any Channel

        /// The next message, or `nil` after the server's close.
        /// - Throws: `SwitchyardError`.
        public mutating func next() async throws -> WebSocketMessage? {
            do {
                guard let message = try await base.next() else { return nil }
                state.consumed(channel: channel)
                return message
            } catch {
                throw SwitchyardError.wrapping(error)
            }
        }
    }

    /// Sends one message (unfragmented, masked as a client must).
    /// - Parameter message: The message.
    /// - Throws: ``SwitchyardCore/SwitchyardError/Kind/webSocketClosed`` when the connection is closed.
    public func send(_ message: WebSocketMessage) async throws {
        var buffer = channel.allocator.buffer(capacity: 0)
        let opcode: WebSocketOpcode
        switch message {
        case .text(let text):
            buffer.writeString(text)
            opcode = .text
        case .binary(let bytes):
            buffer.writeBytes(bytes)
            opcode = .binary
        }
        try await write(WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: buffer))
    }

    /// Sends a ping and waits for the server's pong.
    /// - Parameters:
    ///   - data: Up to 125 bytes the pong echoes.
    ///   - timeout: How long to wait (default ``WebSocketOptions/replyTimeout``).
    /// - Throws: `timeout` when no pong came in time; `webSocketClosed` when the connection is closed.
    public func ping(_ data: [UInt8] = [], timeout: Duration? = nil) async throws {
        let pong = state.expectPong()
        var buffer = channel.allocator.buffer(capacity: data.count)
        buffer.writeBytes(data.prefix(125))
        try await write(WebSocketFrame(fin: true, opcode: .ping, maskKey: .random(), data: buffer))
        guard await pong.wait(timeout: timeout ?? state.options.replyTimeout) else {
            throw SwitchyardError.timedOut("No pong arrived for the WebSocket ping.")
        }
    }

    /// Starts the close handshake and waits for the server's close frame (or the end of the
    /// connection, at most ``WebSocketOptions/replyTimeout``), then closes the connection.
    /// - Parameters:
    ///   - code: The close code (default 1000, normal closure).
    ///   - reason: A short reason (up to 123 bytes of UTF-8).
    public func close(code: Int = 1000, reason: String = "") async {
        Self.sendClose(on: channel, code: code, reason: reason, state: state)
        _ = await state.ended.wait(timeout: state.options.replyTimeout)
        try? await channel.close()
    }

    private func write(_ frame: WebSocketFrame) async throws {
        do {
            try await channel.writeAndFlush(frame)
        } catch {
            throw SwitchyardError(.webSocketClosed, "The WebSocket connection is closed: \(error).", underlyingError: error)
        }
    }

    private static func sendClose(on channel: any Channel, code: Int, reason: String, state: WebSocketState) {
        guard state.markCloseSent() else { return }
        var payload = channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        payload.writeInteger(UInt16(clamping: code))
        payload.writeBytes(reason.utf8.prefix(123))
        channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: payload), promise: nil)
    }
}

/// The upgraded connection of a `101` response, for ``WebSocketClient``.
enum WebSocketConnectionKey: ExchangeContextKey {
    typealias Value = WebSocket
}
