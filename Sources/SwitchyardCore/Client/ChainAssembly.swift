/// Builds the ordered chain a ``ClientConfiguration`` describes (see its documentation for the order).
struct ChainAssembly {
    private(set) var interceptors: [any Interceptor] = []
    private(set) var links: [ChainLink] = []
    /// Header rules of the app and the plugins that change the same field for overlapping scopes.
    private(set) var headerConflicts: [HeaderConflict] = []
    /// The plugins' event observers, each limited to its plugin's scope.
    private(set) var observers: [Plugin.Observer] = []
    /// The bus events go to: the configuration's, or a new one when plugins observe events and the
    /// configuration has none (observers are never dropped silently).
    private(set) var events: EventBus?

    /// Assembles `configuration` in front of `transport`.
    /// - Throws: ``PluginConfigurationError`` for duplicate plugin names or impossible placements.
    init(_ configuration: ClientConfiguration, transport: any Transport) throws(PluginConfigurationError) {
        // Companions join as if registered on their own, right after their plugin.
        let plugins = (configuration.settingPlugins + configuration.plugins).flattened
        var names = Set<String>()
        for plugin in plugins where !names.insert(plugin.name).inserted {
            throw .duplicateName(plugin.name)
        }
        let callPlugins = try PluginOrder.sorted(plugins.filter { $0.position == .call }, position: .call)
        let attemptPlugins = try PluginOrder.sorted(plugins.filter { $0.position == .attempt }, position: .attempt)

        observers = Self.observers(of: plugins)
        events = configuration.events ?? (observers.isEmpty ? nil : EventBus())
        if let bus = events {
            append(EventsInterceptor(bus: bus, popUps: Self.popUps(configuration.popUps, plugins)), .call, .builtIn)
        }
        for plugin in callPlugins where plugin.layer < .appHeaders { append(plugin) }
        if !configuration.headers.isEmpty {
            append(HeadersInterceptor(groups: configuration.headers), .call, .builtIn)
        }
        for plugin in callPlugins where plugin.layer >= .appHeaders && plugin.layer < .department { append(plugin) }
        for interceptor in configuration.callInterceptors { append(interceptor, .call, .app) }
        for plugin in callPlugins where plugin.layer >= .department { append(plugin) }
        for plugin in attemptPlugins where plugin.layer <= .department { append(plugin) }
        for interceptor in configuration.attemptInterceptors { append(interceptor, .attempt, .app) }
        for plugin in attemptPlugins where plugin.layer > .department { append(plugin) }
        links.append(ChainLink(name: String(describing: type(of: transport)), position: .attempt, origin: .transport))
        try links.check(relationsOf: plugins)
        headerConflicts = HeaderConflict.find(
            in: configuration.headers + plugins.filter { !$0.headerRules.isEmpty }.map(\.headerGroup))
    }

    private mutating func append(_ interceptor: any Interceptor, _ position: ChainPosition, _ origin: ChainLink.Origin) {
        interceptors.append(interceptor)
        links.append(ChainLink(name: Pipeline.name(of: interceptor), position: position, origin: origin))
    }

    private mutating func append(_ plugin: Plugin) {
        let headers: [any Interceptor] = plugin.headerRules.isEmpty ? [] : [HeadersInterceptor(groups: [plugin.headerGroup])]
        for interceptor in headers + plugin.interceptors {
            interceptors.append(plugin.scope == .all ? interceptor : ScopedInterceptor(scope: plugin.scope, interceptor))
            links.append(
                ChainLink(
                    name: Pipeline.name(of: interceptor), position: plugin.position,
                    origin: .plugin(plugin.name), scope: plugin.scope))
        }
    }

    /// The configuration's pop-up policy, with the plugins' texts for their own error kinds where the
    /// policy has none.
    private static func popUps(_ configured: PopUpPolicy, _ plugins: [Plugin]) -> PopUpPolicy {
        var policy = configured
        for plugin in plugins {
            for (kind, text) in plugin.popUpTexts where policy.defaults.kinds[kind] == nil {
                policy.defaults.kinds[kind] = text
            }
        }
        return policy
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
