/// Builds the ordered chain a ``ClientConfiguration`` describes (see its documentation for the order).
struct ChainAssembly {
    private(set) var interceptors: [any Interceptor] = []
    private(set) var links: [ChainLink] = []
    /// The plugins' event observers, each limited to its plugin's scope.
    private(set) var observers: [Plugin.Observer] = []
    /// The bus events go to: the configuration's, or a new one when plugins observe events and the
    /// configuration has none (observers are never dropped silently).
    private(set) var events: EventBus?

    /// The name of the plugin that publishes each call's lifecycle on the configuration's bus.
    static let eventsPluginName = "events"

    /// Assembles `configuration` in front of `transport`.
    /// - Throws: ``PluginConfigurationError`` for duplicate plugin names or impossible placements.
    init(_ configuration: ClientConfiguration, transport: any Transport) throws(PluginConfigurationError) {
        // Companions join as if registered on their own, right after their plugin.
        var plugins = (configuration.settingPlugins + configuration.plugins).flattened
        observers = Self.observers(of: plugins)
        events = configuration.events ?? (observers.isEmpty ? nil : EventBus())
        if let bus = events {
            plugins.insert(
                Plugin(name: Self.eventsPluginName, layer: .outermost, interceptors: [EventsInterceptor(bus: bus)]), at: 0)
        }
        var names = Set<String>()
        for plugin in plugins where !names.insert(plugin.name).inserted {
            throw .duplicateName(plugin.name)
        }
        let callPlugins = try PluginOrder.sorted(plugins.filter { $0.position == .call }, position: .call)
        let attemptPlugins = try PluginOrder.sorted(plugins.filter { $0.position == .attempt }, position: .attempt)

        for plugin in callPlugins where plugin.layer < .department { append(plugin) }
        for interceptor in configuration.callInterceptors { append(interceptor, .call) }
        for plugin in callPlugins where plugin.layer >= .department { append(plugin) }
        for plugin in attemptPlugins where plugin.layer <= .department { append(plugin) }
        for interceptor in configuration.attemptInterceptors { append(interceptor, .attempt) }
        for plugin in attemptPlugins where plugin.layer > .department { append(plugin) }
        links.append(ChainLink(name: String(describing: type(of: transport)), position: .attempt, origin: .transport))
        try links.check(relationsOf: plugins)
    }

    private mutating func append(_ interceptor: any Interceptor, _ position: ChainPosition) {
        interceptors.append(interceptor)
        links.append(ChainLink(name: Pipeline.name(of: interceptor), position: position, origin: .app))
    }

    private mutating func append(_ plugin: Plugin) {
        for interceptor in plugin.interceptors {
            interceptors.append(plugin.scope == .all ? interceptor : ScopedInterceptor(scope: plugin.scope, interceptor))
            links.append(
                ChainLink(
                    name: Pipeline.name(of: interceptor), position: plugin.position,
                    origin: .plugin(plugin.name), scope: plugin.scope))
        }
    }

    /// Every plugin's observers, each limited to its plugin's scope.
    private static func observers(of plugins: [Plugin]) -> [Plugin.Observer] {
        plugins.flatMap { plugin in
            plugin.observers.map { observer -> Plugin.Observer in
                let scope = plugin.scope
                guard scope != .all else { return observer }
                return { event in
                    if scope.matches(event.request, tags: event.tags) { observer(event) }
                }
            }
        }
    }
}
