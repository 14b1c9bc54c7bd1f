/// The permessage-deflate extension (RFC 7692) as a client offers it in the handshake.
///
/// It is used only when the server accepts the offer; the handshake's
/// `Sec-WebSocket-Extensions` field says what was agreed, and ``WebSocket/isCompressed`` tells.
/// Incoming messages are inflated with the same bound as any message,
/// ``WebSocketOptions/maximumMessageBytes``, counted after inflation.
public struct WebSocketCompression: Sendable, Hashable {
    /// The base-2 logarithm of the window our messages are compressed with (9…15, default 15):
    /// smaller windows use less memory per connection and compress less.
    public var windowBits: Int
    /// Whether each message is compressed on its own, in both directions (`client_no_context_takeover`
    /// and `server_no_context_takeover`): less memory kept between messages, less compression (default `false`).
    public var noContextTakeover: Bool
    /// Messages shorter than this are sent uncompressed, where compressing costs more than it saves (default 64 bytes).
    public var minimumMessageBytes: Int

    /// Creates settings.
    /// - Parameters:
    ///   - windowBits: The window of our compressor, 9…15.
    ///   - noContextTakeover: Whether every message is compressed on its own.
    ///   - minimumMessageBytes: The size below which messages go out uncompressed.
    public init(windowBits: Int = 15, noContextTakeover: Bool = false, minimumMessageBytes: Int = 64) {
        self.windowBits = min(max(windowBits, 9), 15)
        self.noContextTakeover = noContextTakeover
        self.minimumMessageBytes = max(minimumMessageBytes, 0)
    }

    /// The default offer: a 32 KiB window, context kept between messages.
    public static let permessageDeflate = WebSocketCompression()
}
