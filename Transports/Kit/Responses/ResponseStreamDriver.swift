public import SwitchyardCore

/// The I/O side of a ``ResponseStream``: what one transport does when the stream decides something.
///
/// A driver is a small value stored inside its stream (no allocation of its own); the stream calls
/// it outside its lock, at most once per decision. Everything except ``host`` has a default that
/// does nothing, so a transport implements only what its stack can do.
public protocol ResponseStreamDriver: Sendable {
    /// What the head waiter receives: a parsed ``Response``, or raw bytes parsed on the caller's task.
    associatedtype Head: Sendable
    /// Where body chunks wait for the reader.
    associatedtype Queue: ResponseChunkQueue

    /// The server's name for messages; read only when a message is built.
    var host: String { get }

    /// The caller started waiting for the head of an exchange that has not ended: start the I/O if it
    /// waits for that. Does nothing by default.
    func startReceiving(_ stream: ResponseStream<Self>)

    /// The reader fell behind: stop receiving (``ResponseStreamState/Overflow/keepAndPause``).
    /// Does nothing by default.
    func pauseReceiving(_ stream: ResponseStream<Self>)

    /// The reader caught up: receive again. Does nothing by default.
    func resumeReceiving(_ stream: ResponseStream<Self>)

    /// The exchange has its outcome (called once, before the waiters are resumed): release what the
    /// I/O holds, record the final timing. Does nothing by default.
    func ended(_ stream: ResponseStream<Self>, outcome: Result<Void, SwitchyardError>)

    /// The caller's side ended the exchange (cancellation, a dropped body, a failed head): stop the
    /// I/O. Called after ``ended(_:outcome:)``. Does nothing by default.
    func stopReceiving(_ stream: ResponseStream<Self>)
}

extension ResponseStreamDriver {
    /// Does nothing by default.
    public func startReceiving(_ stream: ResponseStream<Self>) {}
    /// Does nothing by default.
    public func pauseReceiving(_ stream: ResponseStream<Self>) {}
    /// Does nothing by default.
    public func resumeReceiving(_ stream: ResponseStream<Self>) {}
    /// Does nothing by default.
    public func ended(_ stream: ResponseStream<Self>, outcome: Result<Void, SwitchyardError>) {}
    /// Does nothing by default.
    public func stopReceiving(_ stream: ResponseStream<Self>) {}
}
