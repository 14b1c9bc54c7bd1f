/// One link of an assembled chain, for inspection (`yard demo` prints them).
///
/// ```swift
/// for link in client.chain { print(link) }
/// // call     EventsInterceptor                 plugin events
/// // call     payments/SigningInterceptor       plugin payments (hosts=pay.example.com)
/// // …
/// ```
public struct ChainLink: Sendable, CustomStringConvertible {
    /// Who put the link in the chain.
    public enum Origin: Sendable, Hashable {
        /// An interceptor of the named ``Plugin``.
        case plugin(String)
        /// An interceptor the app passed directly.
        case app
        /// The transport at the end of the chain.
        case transport
    }

    /// The interceptor's (or transport's) name.
    public let name: String
    /// Whether it runs once per call or once per attempt (the transport: per attempt).
    public let position: ChainPosition
    /// Who put it there.
    public let origin: Origin
    /// The requests it applies to.
    public let scope: RequestScope

    /// Creates a link description.
    /// - Parameters:
    ///   - name: The interceptor's name.
    ///   - position: Call or attempt.
    ///   - origin: Who put it there.
    ///   - scope: The requests it applies to.
    public init(name: String, position: ChainPosition, origin: Origin, scope: RequestScope = .all) {
        self.name = name
        self.position = position
        self.origin = origin
        self.scope = scope
    }

    /// E.g. `attempt  SigningInterceptor  plugin signing (hosts=pay.example.com)`.
    public var description: String {
        let who: String
        switch origin {
        case .plugin(let name): who = "plugin \(name)"
        case .app: who = "app"
        case .transport: who = "transport"
        }
        let scoped = scope == .all ? "" : " (\(scope))"
        let column = position.rawValue + String(repeating: " ", count: max(1, 9 - position.rawValue.count))
        return "\(column)\(name)  \(who)\(scoped)"
    }
}
