/// A team's extension of the client: interceptors and event observers under one name and scope,
/// at a declared position in the chain.
///
/// ```swift
/// let payments = Plugin(
///     name: "payments",
///     scope: RequestScope(hosts: ["api.example.com"], pathPrefixes: ["/payments"]),
///     position: .attempt,
///     placement: .after("auth"),
///     interceptors: [SigningInterceptor(signer: signer)],   // from SwitchyardSigning
///     observers: [{ event in paymentsMetrics.record(event) }]
/// )
/// let client = try Client(transport: CurlTransport(), configuration: ClientConfiguration(plugins: [payments]))
/// ```
///
/// The plugin's interceptors see only requests in ``scope``; its observers receive only events of
/// requests in ``scope``. Observers run synchronously on the publishing task: keep them short
/// (hand work to your own task if it is slow).
public struct Plugin: Sendable {
    /// Where a plugin goes among the other plugins of the same ``ChainPosition``.
    public enum Placement: Sendable, Hashable {
        /// In registration order.
        case inOrder
        /// Before (outside of) the named plugin.
        case before(String)
        /// After (inside of) the named plugin.
        case after(String)
    }

    /// Receives the events of requests in the plugin's scope.
    public typealias Observer = @Sendable (ExchangeEvent) -> Void

    /// The plugin's name, unique within a client; used by placements, chain listings and conflicts.
    public let name: String
    /// The requests this plugin applies to.
    public var scope: RequestScope

    /// The plugin's header rules as a group owned by the plugin, in its scope.
    public var headerGroup: HeaderRules {
        HeaderRules(owner: name, scope: scope, rules: headerRules)
    }
    /// Whether its interceptors run once per call or once per attempt.
    public var position: ChainPosition
    /// Where it goes among the plugins of the same position.
    public var placement: Placement
    /// Header rules it applies to requests in its scope, before its interceptors; checked against
    /// every other plugin's and the app's rules for conflicts (``Client/headerConflicts``).
    public var headerRules: [HeaderRule]
    /// Its interceptors, outermost first.
    public var interceptors: [any Interceptor]
    /// Its event observers.
    public var observers: [Observer]

    /// Creates a plugin.
    /// - Parameters:
    ///   - name: A unique name.
    ///   - scope: The requests it applies to (default: all).
    ///   - position: Call or attempt position (default: call).
    ///   - placement: Where among plugins of the same position (default: registration order).
    ///   - headerRules: Header rules, applied before `interceptors`.
    ///   - interceptors: Interceptors, outermost first.
    ///   - observers: Event observers.
    public init(
        name: String,
        scope: RequestScope = .all,
        position: ChainPosition = .call,
        placement: Placement = .inOrder,
        headerRules: [HeaderRule] = [],
        interceptors: [any Interceptor] = [],
        observers: [Observer] = []
    ) {
        self.name = name
        self.scope = scope
        self.position = position
        self.placement = placement
        self.headerRules = headerRules
        self.interceptors = interceptors
        self.observers = observers
    }
}
