/// Bounds of one WebSocket connection.
public struct WebSocketOptions: Sendable, Hashable {
    /// The largest message (after its fragments are joined) accepted; a larger one closes the
    /// connection with 1009 and ends reading with `responseTooLarge`, without buffering it (default 16 MiB).
    public var maximumMessageBytes: Int
    /// How long ``WebSocket/close(code:reason:)`` and ``WebSocket/ping(_:timeout:)`` wait for the server (default 10 s).
    public var replyTimeout: Duration
    /// Messages received and not yet read before the connection stops reading from the socket (default 16).
    public var bufferedMessages: Int
    /// permessage-deflate as offered in the handshake, used when the server accepts it (default
    /// ``WebSocketCompression/permessageDeflate``); `nil` offers no compression.
    public var compression: WebSocketCompression?

    /// Creates options.
    /// - Parameters:
    ///   - maximumMessageBytes: The largest message accepted.
    ///   - replyTimeout: The wait for a close or pong reply.
    ///   - bufferedMessages: The unread messages kept before reading pauses.
    ///   - compression: The permessage-deflate offer, or `nil` for none.
    public init(
        maximumMessageBytes: Int = 16 << 20, replyTimeout: Duration = .seconds(10), bufferedMessages: Int = 16,
        compression: WebSocketCompression? = .permessageDeflate
    ) {
        self.maximumMessageBytes = maximumMessageBytes
        self.replyTimeout = replyTimeout
        self.bufferedMessages = bufferedMessages
        self.compression = compression
    }
}
