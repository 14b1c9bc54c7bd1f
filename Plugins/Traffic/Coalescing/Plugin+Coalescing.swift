public import SwitchyardCore

extension Plugin {
    /// The layer of ``coalescing(_:)``: the first call link inside the department plugins, so every
    /// caller passes the links above it (events, statistics, headers, the app's and departments'
    /// call interceptors) and the links below it run once per shared exchange.
    public static let coalescingLayer: Layer = .inner

    /// A plugin that lets identical requests in flight share one exchange (see ``CoalescingPolicy``
    /// for which requests, slow readers and cancellation).
    ///
    /// ```swift
    /// configuration.plugins.append(.coalescing(CoalescingPolicy()))
    /// ```
    ///
    /// Named `coalescing`, in the call position at ``coalescingLayer``. Absent, it costs nothing; for
    /// a request that is not eligible, it checks the override, body, method and scopes.
    /// - Parameter policy: Which requests coalesce, and the per-caller buffer.
    /// - Returns: The plugin.
    public static func coalescing(_ policy: CoalescingPolicy) -> Plugin {
        Plugin(name: "coalescing", layer: coalescingLayer, interceptors: [CoalescingInterceptor(policy: policy)])
    }
}
