/// A plugin configuration the client cannot assemble.
public enum PluginConfigurationError: Error, Hashable, CustomStringConvertible {
    /// Two plugins share a name.
    case duplicateName(String)
    /// A placement names a plugin that is not registered at the same position.
    case unknownPlacementTarget(plugin: String, target: String, position: ChainPosition)
    /// Placements contradict each other (e.g. A before B and B before A).
    case placementCycle([String])
    /// No registered plugin has this name (``Client/unregister(pluginNamed:)``).
    case unknownPlugin(String)
    /// The assembled order breaks an order the plugin depends on (``Plugin/relations``).
    case relationViolated(plugin: String, relation: Plugin.Relation)

    /// What went wrong and how to fix it.
    public var description: String {
        switch self {
        case .duplicateName(let name):
            "Two plugins are named '\(name)'; plugin names must be unique within a client."
        case .unknownPlacementTarget(let plugin, let target, let position):
            "Plugin '\(plugin)' is placed relative to '\(target)', which is not a registered \(position)-position"
                + " plugin; register '\(target)' at the same position or change the placement."
        case .placementCycle(let names):
            "The placements of plugins \(names.joined(separator: ", ")) contradict each other;"
                + " remove one of their before/after constraints."
        case .unknownPlugin(let name):
            "No plugin named '\(name)' is registered on this client; check the name (client.chain lists the plugins)."
        case .relationViolated(let plugin, let relation):
            "Plugin '\(plugin)' must sit \(relation), but its layer or placement puts it elsewhere;"
                + " change one of the two plugins' layer or placement (client.chain lists the order)."
        }
    }
}

/// Orders plugins of one position: by layer, then registration order, with each placed plugin
/// moved right before or after its target and each plugin moved to honour its relations.
enum PluginOrder {
    /// The plugins in chain order (outermost first).
    ///
    /// Plugins without a placement keep their registration order; then each placed plugin is
    /// inserted directly before or after its target, as soon as the target has a place.
    /// - Parameters:
    ///   - plugins: Plugins of one position, in registration order.
    ///   - position: Their position, for error messages.
    /// - Returns: The ordered plugins.
    /// - Throws: ``PluginConfigurationError`` for unknown targets or contradicting placements.
    static func sorted(_ plugins: [Plugin], position: ChainPosition) throws(PluginConfigurationError) -> [Plugin] {
        let names = Set(plugins.map(\.name))
        // Outer layers first; within a layer, registration order (a stable sort), then placements.
        let layered = plugins.enumerated().sorted { ($0.element.layer, $0.offset) < ($1.element.layer, $1.offset) }.map(\.element)
        var ordered = layered.filter { $0.placement == .inOrder }
        var pending = layered.filter { $0.placement != .inOrder }
        for plugin in pending {
            if case .before(let target) = plugin.placement, !names.contains(target) {
                throw .unknownPlacementTarget(plugin: plugin.name, target: target, position: position)
            }
            if case .after(let target) = plugin.placement, !names.contains(target) {
                throw .unknownPlacementTarget(plugin: plugin.name, target: target, position: position)
            }
        }
        while !pending.isEmpty {
            let before = pending.count
            pending.removeAll { plugin in
                switch plugin.placement {
                case .inOrder:
                    return true
                case .before(let target):
                    guard let index = ordered.firstIndex(where: { $0.name == target }) else { return false }
                    ordered.insert(plugin, at: index)
                    return true
                case .after(let target):
                    guard let index = ordered.firstIndex(where: { $0.name == target }) else { return false }
                    ordered.insert(plugin, at: index + 1)
                    return true
                }
            }
            if pending.count == before { throw .placementCycle(pending.map(\.name)) }
        }
        return try honouringRelations(ordered)
    }

    /// Moves each plugin that must sit outside (inside) another of its layer right before (after)
    /// it; relations across layers are left to ``Plugin/Layer`` and checked after assembly.
    /// - Throws: ``PluginConfigurationError/relationViolated(plugin:relation:)`` when relations
    ///   contradict each other.
    private static func honouringRelations(_ plugins: [Plugin]) throws(PluginConfigurationError) -> [Plugin] {
        guard plugins.contains(where: { !$0.relations.isEmpty }) else { return plugins }
        var ordered = plugins
        // Each move settles one relation; more moves than pairs of plugins means a contradiction.
        var movesLeft = ordered.count * ordered.count + 1
        var moved = true
        while moved {
            moved = false
            for plugin in ordered where !plugin.relations.isEmpty {
                for relation in plugin.relations {
                    guard let own = ordered.firstIndex(where: { $0.name == plugin.name }),
                        let other = ordered.firstIndex(where: { $0.name == relation.other }),
                        ordered[own].layer == ordered[other].layer
                    else { continue }
                    let misplaced =
                        switch relation {
                        case .outside: own > other
                        case .inside: own < other
                        }
                    guard misplaced else { continue }
                    if movesLeft == 0 { throw .relationViolated(plugin: plugin.name, relation: relation) }
                    movesLeft -= 1
                    let mover = ordered.remove(at: own)
                    ordered.insert(mover, at: other)  // before it when outside; after it when inside
                    moved = true
                }
            }
        }
        return ordered
    }
}
