public import SwitchyardCore

extension SwitchyardError.Kind {
    /// An event stream's response was not a `200` with `Content-Type: text/event-stream` (or a `204`,
    /// which ends the stream): the standard says not to reconnect. Not retried.
    public static let eventStreamRejected = Self(rawValue: "eventStreamRejected")
    /// One event, or one line of a JSON-lines stream, passed its size limit; the connection was
    /// closed without buffering the rest. Not retried.
    public static let eventTooLarge = Self(rawValue: "eventTooLarge")
}

extension SwitchyardError {
    /// An event stream answered with something other than an event stream.
    /// - Parameters:
    ///   - status: The response status.
    ///   - contentType: The response's `Content-Type`, if any.
    /// - Returns: An ``SwitchyardError/Kind/eventStreamRejected`` error.
    public static func eventStreamRejected(status: Int, contentType: String?) -> Self {
        Self(
            .eventStreamRejected,
            "The server answered \(status) with Content-Type \(contentType.map { "'\($0)'" } ?? "(none)"); an event stream needs"
                + " 200 with 'text/event-stream'. Check the URL and the request's Accept and credentials.")
    }

    /// An event or a line larger than `limit` bytes.
    /// - Parameter limit: The limit in bytes.
    /// - Returns: An ``SwitchyardError/Kind/eventTooLarge`` error.
    public static func eventTooLarge(limit: Int) -> Self {
        Self(
            .eventTooLarge,
            "An event (or line) passed \(limit) bytes before it ended; raise the stream's maximumEventBytes if the server"
                + " really sends events that large.")
    }
}
