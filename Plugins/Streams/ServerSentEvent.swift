/// One event of a `text/event-stream`, as the WHATWG HTML standard's parsing rules dispatch it.
public struct ServerSentEvent: Sendable, Hashable {
    /// The event type: the last `event:` field, or `message` when there was none.
    public var type: String
    /// The `data:` lines of the event joined by line feeds.
    public var data: String
    /// The last event ID of the stream when this event was dispatched (`id:` fields persist across
    /// events), or `nil` if no `id:` was ever received. Sent back as `Last-Event-ID` on reconnection.
    public var lastEventID: String?

    /// Creates an event.
    /// - Parameters:
    ///   - type: The event type (default `message`).
    ///   - data: The data.
    ///   - lastEventID: The last event ID.
    public init(type: String = "message", data: String, lastEventID: String? = nil) {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }
}
