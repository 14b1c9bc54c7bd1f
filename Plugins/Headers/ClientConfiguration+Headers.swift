public import SwitchyardCore

/// ``SwitchyardCore/ClientConfiguration/headers``.
enum HeaderRulesSetting: ClientSettingKey {
    static let defaultValue: [HeaderRules] = []
    static func plugins(for value: [HeaderRules], in configuration: ClientConfiguration) -> [Plugin] {
        value.isEmpty ? [] : [Plugin(name: "headers", layer: .appDefaults, interceptors: [HeadersInterceptor(groups: value)])]
    }
}

extension ClientConfiguration {
    /// App-wide and department header rules, each group in its own scope (see ``HeaderRules``),
    /// applied by one link in the `appDefaults` stage, before any department's plugin.
    public var headers: [HeaderRules] {
        get { self[HeaderRulesSetting.self] }
        set { self[HeaderRulesSetting.self] = newValue }
    }
}

extension Plugin {
    /// Creates a plugin whose header rules apply to requests in its scope before its interceptors,
    /// as a group it owns (checked against every other group for ``SwitchyardCore/Client/headerConflicts``).
    ///
    /// ```swift
    /// let search = Plugin(name: "search", scope: RequestScope(pathPrefixes: ["/search"]),
    ///                     headerRules: [.set("X-Department", "search")])
    /// ```
    /// - Parameters:
    ///   - name: A unique name.
    ///   - scope: The requests it applies to (default: all).
    ///   - position: Call or attempt position (default: call).
    ///   - layer: How far from the caller among plugins of the same position (default: departments').
    ///   - placement: Where among plugins of the same position and layer (default: registration order).
    ///   - relations: Orders it depends on, checked at assembly (default: none).
    ///   - headerRules: Header rules, applied before `interceptors`.
    ///   - interceptors: Interceptors, outermost first.
    ///   - observers: Event observers.
    ///   - companions: Plugins registered together with this one.
    public init(
        name: String, scope: RequestScope = .all, position: ChainPosition = .call, layer: Layer = .department,
        placement: Placement = .inOrder, relations: [Relation] = [], headerRules: [HeaderRule],
        interceptors: [any Interceptor] = [], observers: [Observer] = [], companions: [Plugin] = []
    ) {
        let headers = HeadersInterceptor(groups: [HeaderRules(owner: name, scope: scope, rules: headerRules)])
        self.init(
            name: name, scope: scope, position: position, layer: layer, placement: placement, relations: relations,
            interceptors: (headerRules.isEmpty ? [] : [headers]) + interceptors, observers: observers,
            companions: companions)
    }
}

extension Client {
    /// Header rules (of ``SwitchyardCore/ClientConfiguration/headers`` and of plugins) from
    /// different owners that change the same field for requests both could match, with the one that
    /// wins.
    public var headerConflicts: [HeaderConflict] {
        HeaderConflict.find(in: interceptors(ofType: HeadersInterceptor.self).flatMap(\.groups))
    }
}
