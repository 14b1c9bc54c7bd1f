public import SwitchyardCore

extension SwitchyardError.Kind {
    /// The server did not accept the WebSocket opening handshake: a status other than 101 (a
    /// redirect included: RFC 6455 lets a client refuse them), or a 101 whose fields are wrong.
    public static let webSocketHandshake = Self(rawValue: "webSocketHandshake")
    /// The connection ended without a close handshake (abrupt close, 1006) or with a protocol error.
    public static let webSocketClosed = Self(rawValue: "webSocketClosed")
}
