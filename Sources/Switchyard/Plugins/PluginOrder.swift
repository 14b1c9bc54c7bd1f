/// A plugin configuration the client cannot assemble.
public enum PluginConfigurationError: Error, Hashable, CustomStringConvertible {
    /// Two plugins share a name.
    case duplicateName(String)
    /// A placement names a plugin that is not registered at the same position.
    case unknownPlacementTarget(plugin: String, target: String, position: ChainPosition)
    /// Placements contradict each other (e.g. A before B and B before A).
    case placementCycle([String])

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
        }
    }
}

/// Orders plugins of one position: registration order, adjusted by `before`/`after` placements.
enum PluginOrder {
    /// The plugins in chain order (outermost first).
    /// - Parameter plugins: Plugins of one position, in registration order.
    /// - Returns: The stable topological order: among plugins free to go next, the earliest
    ///   registered goes first.
    /// - Throws: ``PluginConfigurationError`` for unknown targets or contradicting placements.
    static func sorted(_ plugins: [Plugin], position: ChainPosition) throws(PluginConfigurationError) -> [Plugin] {
        var index: [String: Int] = [:]
        for (offset, plugin) in plugins.enumerated() { index[plugin.name] = offset }
        // edges[a] contains b when a must come before b.
        var edges = Array(repeating: Set<Int>(), count: plugins.count)
        var incoming = Array(repeating: 0, count: plugins.count)
        for (offset, plugin) in plugins.enumerated() {
            let edge: (from: Int, to: Int)
            switch plugin.placement {
            case .inOrder: continue
            case .before(let target):
                guard let other = index[target] else {
                    throw .unknownPlacementTarget(plugin: plugin.name, target: target, position: position)
                }
                edge = (offset, other)
            case .after(let target):
                guard let other = index[target] else {
                    throw .unknownPlacementTarget(plugin: plugin.name, target: target, position: position)
                }
                edge = (other, offset)
            }
            if edges[edge.from].insert(edge.to).inserted { incoming[edge.to] += 1 }
        }
        var ready = Set(plugins.indices.filter { incoming[$0] == 0 })
        var order: [Plugin] = []
        while let next = ready.min() {
            ready.remove(next)
            order.append(plugins[next])
            for successor in edges[next] {
                incoming[successor] -= 1
                if incoming[successor] == 0 { ready.insert(successor) }
            }
        }
        guard order.count == plugins.count else {
            throw .placementCycle(plugins.indices.filter { incoming[$0] > 0 }.map { plugins[$0].name })
        }
        return order
    }
}
