public import HTTPTypes
public import SwitchyardCore

/// A transport that answers from a route table instead of the network: build screens before the API exists,
/// and test how the chain handles slow, failing or flaky endpoints.
///
/// Each route matches a method (or any) and a ``StubPathPattern`` and answers with ``StubReply`` values:
/// a canned response, an error, a closure, each optionally delayed. Routes are tried in the order they
/// were added; the first match answers.
///
/// ```swift
/// let api = RoutedStubTransport()
/// api.on(.get, "/users/*", reply: try .json(User(id: 42, name: "Ada")))
/// api.on(.post, "/users", reply: .status(.created))
/// let feed = api.on(.get, "/feed", replies: [.status(.serviceUnavailable), .text("[]")])
/// api.on("/slow/**", reply: .text("done").delayed(by: .seconds(3)))
///
/// let client = Client(transport: api)
/// let user = try await client.send(try Request(url: "https://api.example.com/users/42"))
/// #expect(user.head.status == .ok)
/// #expect(api.callCount == 1 && feed.callCount == 0)
/// ```
///
/// A request no route matches fails with `SwitchyardError.Kind.invalidRequest`, naming the method and
/// path and listing the routes — or gets the ``UnmatchedPolicy/reply(_:)`` you chose instead (e.g. `404`).
///
/// Safe to use from many tasks at once; routes may be added while requests are in flight.
public final class RoutedStubTransport: Transport {
    /// What happens to a request that no route matches.
    public enum UnmatchedPolicy: Sendable {
        /// Fail with `SwitchyardError.Kind.invalidRequest` naming the request and listing the routes.
        case fail
        /// Answer with this reply, e.g. `.reply(.status(.notFound))`.
        case reply(StubReply)
    }

    private struct State {
        var routes: [StubRoute]
        var requests: [Request] = []
        var unmatched: [Request] = []
    }

    private let state: Lock<State>
    private let unmatchedPolicy: UnmatchedPolicy

    /// Creates a stub with a route table.
    /// - Parameters:
    ///   - routes: The initial routes, tried in order.
    ///   - unmatched: What to do with a request no route matches; fails by default.
    public init(routes: [StubRoute] = [], unmatched: UnmatchedPolicy = .fail) {
        self.state = Lock(State(routes: routes))
        self.unmatchedPolicy = unmatched
    }

    // MARK: - Building the table

    /// Appends a route; it is tried after the routes added before it.
    /// - Parameter route: The route.
    public func add(_ route: StubRoute) {
        state.withLock { $0.routes.append(route) }
    }

    /// Adds a route answering `method` requests on `pattern` with `reply`.
    /// - Parameters:
    ///   - method: The method to match.
    ///   - pattern: The path pattern, e.g. `"/users/*"`.
    ///   - reply: The reply for every call.
    /// - Returns: The route, for its call count.
    @discardableResult
    public func on(_ method: HTTPRequest.Method, _ pattern: StubPathPattern, reply: StubReply) -> StubRoute {
        on(method, pattern, replies: [reply])
    }

    /// Adds a route answering `method` requests on `pattern` with a sequence of replies; the last repeats.
    /// - Parameters:
    ///   - method: The method to match.
    ///   - pattern: The path pattern.
    ///   - replies: The replies in call order, e.g. `[.status(.serviceUnavailable), .text("ok")]`.
    /// - Returns: The route, for its call count.
    @discardableResult
    public func on(_ method: HTTPRequest.Method, _ pattern: StubPathPattern, replies: [StubReply]) -> StubRoute {
        let route = StubRoute(method, pattern, replies: replies)
        add(route)
        return route
    }

    /// Adds a route answering requests of any method on `pattern` with `reply`.
    /// - Parameters:
    ///   - pattern: The path pattern.
    ///   - reply: The reply for every call.
    /// - Returns: The route, for its call count.
    @discardableResult
    public func on(_ pattern: StubPathPattern, reply: StubReply) -> StubRoute {
        on(pattern, replies: [reply])
    }

    /// Adds a route answering requests of any method on `pattern` with a sequence of replies; the last repeats.
    /// - Parameters:
    ///   - pattern: The path pattern.
    ///   - replies: The replies in call order.
    /// - Returns: The route, for its call count.
    @discardableResult
    public func on(_ pattern: StubPathPattern, replies: [StubReply]) -> StubRoute {
        let route = StubRoute(nil, pattern, replies: replies)
        add(route)
        return route
    }

    // MARK: - Inspecting

    /// The routes, in the order they are tried.
    public var routes: [StubRoute] { state.withLock { $0.routes } }

    /// Every request received, matched or not, in order.
    public var requests: [Request] { state.withLock { $0.requests } }

    /// How many requests were received, matched or not.
    public var callCount: Int { state.withLock { $0.requests.count } }

    /// The requests no route matched, in order.
    public var unmatchedRequests: [Request] { state.withLock { $0.unmatched } }

    // MARK: - Transport

    /// Answers `request` from the first matching route.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The exchange context; its deadline bounds any delay.
    /// - Returns: The route's response.
    /// - Throws: The route's error; `SwitchyardError.Kind.cancelled` or `SwitchyardError.Kind.timeout`
    ///   during a delay; `SwitchyardError.Kind.invalidRequest` when no route matches (unless a fallback is set).
    public nonisolated(nonsending) func send(_ request: Request, context: ExchangeContext) async throws -> Response {
        let (route, routes) = state.withLock { state in
            state.requests.append(request)
            let route = state.routes.first { $0.matches(request.head) }
            if route == nil { state.unmatched.append(request) }
            return (route, route == nil ? state.routes : [])
        }
        if let route {
            return try await route.takeReply(for: request).answer(request, context: context)
        }
        switch unmatchedPolicy {
        case .reply(let reply): return try await reply.answer(request, context: context)
        case .fail: throw Self.unmatchedError(request.head, routes: routes)
        }
    }

    private static func unmatchedError(_ head: HTTPRequest, routes: [StubRoute]) -> SwitchyardError {
        let table = routes.isEmpty ? " (none)" : routes.map { "\n  \($0)" }.joined()
        return .invalidRequest(
            "No stub route matches \(head.method.rawValue) \(head.path ?? "/")."
                + " Add one with on(.\(head.method.rawValue.lowercased()), \"\(head.path ?? "/")\", reply: ...)."
                + " Routes:\(table)")
    }
}
