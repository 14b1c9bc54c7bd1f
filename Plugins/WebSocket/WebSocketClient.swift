public import HTTPTypes
public import SwitchyardCore
public import SwitchyardStandardLinks

/// Opens WebSocket connections whose handshakes go through a client chain.
///
/// ```swift
/// let webSockets = try WebSocketClient(configuration: configuration)   // the app's own chain settings
/// let socket = try await webSockets.connect(url: "ws://127.0.0.1:8080/ws/echo")
/// try await socket.send(.text("hello"))
/// for try await message in socket { print(message); break }
/// await socket.close()
/// ```
///
/// The handshake is one `GET` through the chain built from `configuration` — header rules, cookies,
/// credentials, tracing, events — with redirects off: RFC 6455 lets a client refuse them, and a
/// `3xx` fails the handshake like any other status than `101`. The connection itself runs on
/// SwiftNIO (`NIOWebSocket`'s frame codec), whatever transport the app uses for HTTP.
public struct WebSocketClient: Sendable {
    private let client: Client

    /// Creates a client.
    /// - Parameters:
    ///   - configuration: The chain the handshakes go through (its redirect setting is ignored).
    ///   - options: The connections' bounds.
    /// - Throws: The configuration's plugin errors.
    public init(configuration: ClientConfiguration = ClientConfiguration(), options: WebSocketOptions = WebSocketOptions()) throws {
        var configuration = configuration
        configuration.redirects = nil
        client = try Client(transport: WebSocketHandshakeTransport(options: options), configuration: configuration)
    }

    /// Opens a connection to a `ws://` or `wss://` URL (also `http://`, `https://`).
    /// - Parameters:
    ///   - url: The URL.
    ///   - headers: Fields for the handshake request (`Sec-WebSocket-Protocol`, credentials).
    /// - Returns: The open connection.
    /// - Throws: As ``connect(_:)``; `invalidRequest` for another scheme.
    public func connect(url: String, headers: HTTPFields = HTTPFields()) async throws -> WebSocket {
        var address = url
        if address.lowercased().hasPrefix("ws://") {
            address = "http://" + address.dropFirst("ws://".count)
        } else if address.lowercased().hasPrefix("wss://") {
            address = "https://" + address.dropFirst("wss://".count)
        }
        var request = try Request(url: address)
        request.head.headerFields.append(contentsOf: headers)
        return try await connect(request)
    }

    /// Opens a connection.
    ///
    /// The handshake judges the status itself (`101` and nothing else): its request's
    /// `options.validation` is `StatusValidation.everyStatus`, so a configuration with
    /// status validation neither refuses the `101` nor turns another status into `httpStatus`, and
    /// the retry link does not send a refused handshake again unless the request sets `options.retry`.
    /// - Parameter request: The handshake request, with an `http://` (for `ws://`) or `https://`
    ///   (for `wss://`) URL.
    /// - Returns: The open connection.
    /// - Throws: ``SwitchyardCore/SwitchyardError/Kind/webSocketHandshake`` with the status when the
    ///   server did not switch protocols; the chain's errors.
    public func connect(_ request: Request) async throws -> WebSocket {
        var request = request
        request.options.validation = .everyStatus
        // A refused handshake is the answer, as for event streams: not sent again unless the
        // request asks for retries itself.
        if request.options.retry == nil { request.options.retry = .disabled }
        let response = try await client.send(request)
        guard let socket = response.context[WebSocketConnectionKey.self], response.head.status.code == 101 else {
            let body = String(decoding: response.body.prefix(256), as: UTF8.self)
            throw SwitchyardError(
                .webSocketHandshake,
                "The server answered \(response.head.status.code) instead of 101 Switching Protocols"
                    + (response.head.status.kind == .redirection ? " (WebSocket handshakes do not follow redirects)" : "")
                    + (body.isEmpty ? "." : ": \(body)"))
        }
        return socket
    }
}
