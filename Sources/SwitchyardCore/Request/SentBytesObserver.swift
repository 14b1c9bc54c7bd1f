/// Receives how many bytes of a request's body the transport has written to the connection: the
/// wire's count, not the count of bytes read from the body (which a transport may read ahead of
/// sending, or collect completely first, as URLSession does on Linux).
///
/// Set one on a request's options; every transport reports to it while the body goes out:
///
/// ```swift
/// var request = try Request(method: .put, url: url, body: .file(atPath: "movie.mp4"))
/// request.options.sentBytesObserver = SentBytesObserver { sent in print("\(sent) bytes on the wire") }
/// ```
///
/// What each transport counts:
/// - curl: libcurl's uploaded-bytes count (`CURLOPT_XFERINFOFUNCTION`'s `ulnow`), bytes handed to the socket;
/// - URLSession: `urlSession(_:task:didSendBodyData:totalBytesSent:totalBytesExpectedToSend:)`,
///   also on Linux, where the body is collected before it is sent;
/// - AsyncHTTPClient: bytes AsyncHTTPClient has taken from the body and written to its channel,
///   which it does only while the connection is writable (at most NIO's write buffer, 64 KiB,
///   ahead of the socket).
///
/// The count starts at zero for each attempt (each time a link sends the body again) and
/// never goes back within one. Called on the transport's own thread: keep it short, never block.
///
/// A request without an observer costs nothing: transports look for it once per request with a
/// body (an empty-storage check), and arm no callback, clock or lock without one.
public struct SentBytesObserver: Sendable, Hashable {
    private final class Box: Sendable {
        let receive: @Sendable (Int64) -> Void
        init(_ receive: @escaping @Sendable (Int64) -> Void) { self.receive = receive }
    }

    private let box: Box

    /// Creates an observer.
    /// - Parameter receive: Called with the bytes of the body sent so far in the current attempt.
    public init(_ receive: @escaping @Sendable (Int64) -> Void) {
        box = Box(receive)
    }

    /// Hands the count to the observer (called by transports).
    /// - Parameter totalBytesSent: Bytes of the body written to the connection so far in this attempt.
    public func sent(_ totalBytesSent: Int64) {
        box.receive(totalBytesSent)
    }

    /// Observers are equal when they are the same observer (a copy of the same value).
    /// - Parameters:
    ///   - lhs: An observer.
    ///   - rhs: Another observer.
    /// - Returns: Whether both are the same observer.
    public static func == (lhs: SentBytesObserver, rhs: SentBytesObserver) -> Bool { lhs.box === rhs.box }

    /// Hashes the observer's identity.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(box)) }
}

/// The per-request option that holds a ``SentBytesObserver`` (``RequestOptions/sentBytesObserver``).
public enum SentBytesObserverKey: RequestOptionKey {
    /// `nil`: nobody observes, and no transport counts.
    public static let defaultValue: SentBytesObserver? = nil
}

extension RequestOptions {
    /// Who is told how many bytes of the request body the transport has written to the connection
    /// (see ``SentBytesObserver``); `nil` by default, which costs nothing.
    public var sentBytesObserver: SentBytesObserver? {
        get { self[SentBytesObserverKey.self] }
        set { self[SentBytesObserverKey.self] = newValue }
    }
}
