/// A whole WebSocket message (fragments already joined).
public enum WebSocketMessage: Sendable, Hashable {
    /// A text message.
    case text(String)
    /// A binary message.
    case binary([UInt8])
}
