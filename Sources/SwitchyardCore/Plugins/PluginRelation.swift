extension Plugin {
    /// An order a plugin depends on, stated by name and checked when the chain is assembled.
    ///
    /// A plugin's ``Layer`` and ``Placement`` decide where it goes; a relation says what must hold
    /// for it to work, so that a configuration that breaks it fails at assembly instead of behaving
    /// differently. A relation to a plugin the client does not have holds trivially.
    ///
    /// ```swift
    /// // Counts every call before the department's signing link changes it.
    /// Plugin(name: "audit", layer: .outer, relations: [.outside("signing")], interceptors: [audit])
    /// ```
    public enum Relation: Sendable, Hashable, CustomStringConvertible {
        /// Every link of this plugin sees the request before (and the response after) every link
        /// of the named plugin.
        case outside(String)
        /// Every link of this plugin sees the request after (and the response before) every link
        /// of the named plugin.
        case inside(String)

        /// The named plugin.
        public var other: String {
            switch self {
            case .outside(let name), .inside(let name): name
            }
        }

        /// `outside signing`, `inside cache`.
        public var description: String {
            switch self {
            case .outside(let name): "outside \(name)"
            case .inside(let name): "inside \(name)"
            }
        }
    }
}

extension [ChainLink] {
    /// Checks every relation of `plugins` against these links (the assembled chain, outermost first).
    /// - Throws: ``PluginConfigurationError/relationViolated(plugin:relation:)`` for the first that
    ///   does not hold.
    func check(relationsOf plugins: [Plugin]) throws(PluginConfigurationError) {
        for plugin in plugins where !plugin.relations.isEmpty {
            guard let own = linkIndices(of: plugin.name) else { continue }
            for relation in plugin.relations {
                guard let other = linkIndices(of: relation.other) else { continue }
                let holds =
                    switch relation {
                    case .outside: own.upperBound < other.lowerBound
                    case .inside: own.lowerBound > other.upperBound
                    }
                if !holds { throw .relationViolated(plugin: plugin.name, relation: relation) }
            }
        }
    }

    /// The first and last index of the named plugin's links, or `nil` when it has none.
    private func linkIndices(of name: String) -> ClosedRange<Int>? {
        let indices = self.indices.filter { self[$0].origin == .plugin(name) }
        guard let first = indices.first, let last = indices.last else { return nil }
        return first...last
    }
}
