public import HTTPTypes
public import SwitchyardCore

/// One entry of a ``RoutedStubTransport``'s table: a method (or any) and a path pattern, answered by a
/// sequence of replies. Counts its calls and keeps the requests it answered.
///
/// Call *n* gets `replies[n - 1]`; once the sequence is used up, the last reply repeats. That makes
/// retry behaviour easy to test:
///
/// ```swift
/// let feed = StubRoute(.get, "/feed", replies: [
///     .status(.serviceUnavailable), .status(.serviceUnavailable), .text("[]"),
/// ])
/// let stub = RoutedStubTransport(routes: [feed])
/// // ... send through a client with a retry interceptor ...
/// #expect(feed.callCount == 3)
/// ```
public final class StubRoute: Sendable, CustomStringConvertible {
    /// The method this route answers, or `nil` for any method.
    public let method: HTTPRequest.Method?
    /// The path pattern this route answers.
    public let pattern: StubPathPattern
    /// The replies, in the order calls receive them; the last one repeats.
    public let replies: [StubReply]

    private let answered = Lock<[Request]>([])

    /// Creates a route answering with a sequence of replies.
    /// - Parameters:
    ///   - method: The method to match, or `nil` for any.
    ///   - pattern: The path pattern, e.g. `"/users/*"`.
    ///   - replies: The replies in call order; must not be empty (an empty list answers `500`).
    public init(_ method: HTTPRequest.Method?, _ pattern: StubPathPattern, replies: [StubReply]) {
        self.method = method
        self.pattern = pattern
        self.replies =
            replies.isEmpty
            ? [.text("The stub route \(pattern) has no replies.", status: .internalServerError)]
            : replies
    }

    /// Creates a route answering every call with one reply.
    /// - Parameters:
    ///   - method: The method to match, or `nil` for any.
    ///   - pattern: The path pattern, e.g. `"/users/*"`.
    ///   - reply: The reply.
    public convenience init(_ method: HTTPRequest.Method?, _ pattern: StubPathPattern, reply: StubReply) {
        self.init(method, pattern, replies: [reply])
    }

    /// Creates a route for any method, answering with a sequence of replies.
    /// - Parameters:
    ///   - pattern: The path pattern, e.g. `"/health"`.
    ///   - replies: The replies in call order.
    public convenience init(_ pattern: StubPathPattern, replies: [StubReply]) {
        self.init(nil, pattern, replies: replies)
    }

    /// Creates a route for any method, answering every call with one reply.
    /// - Parameters:
    ///   - pattern: The path pattern, e.g. `"/health"`.
    ///   - reply: The reply.
    public convenience init(_ pattern: StubPathPattern, reply: StubReply) {
        self.init(nil, pattern, replies: [reply])
    }

    /// The method and pattern, e.g. `GET /users/*` or `ANY /health`.
    public var description: String { "\(method?.rawValue ?? "ANY") \(pattern)" }

    /// How many requests this route has answered.
    public var callCount: Int { answered.withLock { $0.count } }

    /// The requests this route has answered, in order.
    public var requests: [Request] { answered.withLock { $0 } }

    /// Whether this route answers `head`.
    /// - Parameter head: The request head.
    /// - Returns: `true` when the method and path match.
    public func matches(_ head: HTTPRequest) -> Bool {
        if let method, method != head.method { return false }
        return pattern.matches(path: head.path ?? "/")
    }

    /// Records the call and returns the reply it gets.
    func takeReply(for request: Request) -> StubReply {
        let index = answered.withLock { requests in
            requests.append(request)
            return requests.count - 1
        }
        return replies[min(index, replies.count - 1)]
    }
}
