/// How a ``ServerSentEvents`` sequence bounds events and reconnects.
public struct EventStreamOptions: Sendable, Hashable {
    /// The most bytes one event may take (default 1 MiB); a larger one ends the sequence with
    /// ``SwitchyardCore/SwitchyardError/Kind/eventTooLarge``.
    public var maximumEventBytes: Int
    /// The wait before reconnecting until the server sends `retry:` (default 3 s).
    public var reconnectionDelay: Duration
    /// The ceiling on any wait, the server's `retry:` and the back-off included (default 60 s).
    public var maximumReconnectionDelay: Duration
    /// Reconnections in a row that may deliver no event before the sequence gives up with the last
    /// error (default 10). Each failed one doubles the wait; an event resets the count.
    public var maximumReconnections: Int

    /// Creates options.
    /// - Parameters:
    ///   - maximumEventBytes: The bound on one event.
    ///   - reconnectionDelay: The first wait before reconnecting.
    ///   - maximumReconnectionDelay: The ceiling on waits.
    ///   - maximumReconnections: Reconnections in a row without an event before giving up.
    public init(
        maximumEventBytes: Int = 1 << 20, reconnectionDelay: Duration = .seconds(3),
        maximumReconnectionDelay: Duration = .seconds(60), maximumReconnections: Int = 10
    ) {
        self.maximumEventBytes = maximumEventBytes
        self.reconnectionDelay = reconnectionDelay
        self.maximumReconnectionDelay = maximumReconnectionDelay
        self.maximumReconnections = maximumReconnections
    }

    /// The wait before a reconnection: the server's `retry:` (else ``reconnectionDelay``), doubled for
    /// each reconnection in a row that delivered no event, capped at ``maximumReconnectionDelay``.
    /// - Parameters:
    ///   - failures: Reconnections in a row so far, this one included (from 1).
    ///   - retryMilliseconds: The server's `retry:` value, if it sent one.
    /// - Returns: The wait.
    public func delay(afterFailures failures: Int, retryMilliseconds: Int?) -> Duration {
        let ceiling = maximumReconnectionDelay
        let base = min(retryMilliseconds.map { Duration.milliseconds($0) } ?? reconnectionDelay, ceiling)
        return min(base * (1 << min(max(failures - 1, 0), 20)), ceiling)
    }
}
