/// A team's extension of the client: interceptors and event observers under one name and scope,
/// at a declared position in the chain. A plugin has what every plugin has (name, scope, placement,
/// interceptors, observers, companions); a feature brings the rest as interceptors of its own.
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

    /// Whether its interceptors run once per call or once per attempt.
    public var position: ChainPosition
    /// How far from the caller it sits among the plugins of the same position (default
    /// ``Layer/department``).
    public var layer: Layer
    /// Where it goes among the plugins of the same position and layer.
    public var placement: Placement
    /// Orders it depends on, checked at assembly (``Relation``; default: none).
    public var relations: [Relation]
    /// Its interceptors, outermost first.
    public var interceptors: [any Interceptor]
    /// Its event observers.
    public var observers: [Observer]
    /// Plugins registered together with this one, e.g. its attempt-position half when a feature needs
    /// links at both positions (a call span and a span per attempt).
    ///
    /// Each companion is ordered, scoped and named as if it were registered on its own right after
    /// this plugin (and its own companions right after it): it has its own ``name`` (unique within
    /// the client, listed in `client.chain`), ``scope``, ``position``, ``layer`` and ``placement``,
    /// and its observers count like any plugin's. So the app
    /// registers one `Plugin` however many links the feature needs:
    ///
    /// ```swift
    /// let audit = Plugin(
    ///     name: "audit", interceptors: [AuditCallInterceptor()],
    ///     companions: [Plugin(name: "audit.attempt", position: .attempt, interceptors: [AuditAttemptInterceptor()])])
    /// try client.register(audit)                     // both links
    /// try client.unregister(pluginNamed: "audit")    // both links again
    /// ```
    ///
    /// ``Client/unregister(pluginNamed:)`` with this plugin's name removes its companions too; with a
    /// companion's name, that companion (and its own companions) alone.
    public var companions: [Plugin]

    /// Creates a plugin.
    /// - Parameters:
    ///   - name: A unique name.
    ///   - scope: The requests it applies to (default: all).
    ///   - position: Call or attempt position (default: call).
    ///   - layer: How far from the caller among plugins of the same position (default: departments').
    ///   - placement: Where among plugins of the same position and layer (default: registration order).
    ///   - relations: Orders it depends on, checked at assembly (default: none).
    ///   - interceptors: Interceptors, outermost first.
    ///   - observers: Event observers.
    ///   - companions: Plugins registered together with this one, each as if registered on its own
    ///     right after it (default: none; see ``companions``).
    public init(
        name: String,
        scope: RequestScope = .all,
        position: ChainPosition = .call,
        layer: Layer = .department,
        placement: Placement = .inOrder,
        relations: [Relation] = [],
        interceptors: [any Interceptor] = [],
        observers: [Observer] = [],
        companions: [Plugin] = []
    ) {
        self.name = name
        self.scope = scope
        self.position = position
        self.layer = layer
        self.placement = placement
        self.relations = relations
        self.interceptors = interceptors
        self.observers = observers
        self.companions = companions
    }
}

extension Plugin {
    /// This plugin without its companions, followed by each companion's own ``withCompanions``: the
    /// plugins as if each were registered on its own, in registration order.
    var withCompanions: [Plugin] {
        var alone = self
        alone.companions = []
        return [alone] + companions.flatMap(\.withCompanions)
    }
}

extension [Plugin] {
    /// Every plugin and companion as if each were registered on its own, in registration order.
    var flattened: [Plugin] { flatMap(\.withCompanions) }

    /// Removes the plugin named `name` (with its companions): a registered plugin, or else a
    /// companion of one, at any depth.
    /// - Returns: Whether a plugin had that name.
    mutating func removePlugin(named name: String) -> Bool {
        if let index = firstIndex(where: { $0.name == name }) {
            remove(at: index)
            return true
        }
        for index in indices {
            if self[index].companions.removePlugin(named: name) { return true }
        }
        return false
    }
}
