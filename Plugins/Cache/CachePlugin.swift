public import SwitchyardCore

extension Plugin {
    /// The HTTP cache as a plugin: answers `GET` and `HEAD` from `cache` and stores what the network
    /// returns (one ``CacheInterceptor``).
    ///
    /// ```swift
    /// let cache = HTTPCache(store: MemoryCacheStore())
    /// let client = try Client(transport: CurlTransport(), configuration: ClientConfiguration(plugins: [.cache(cache)]))
    /// cache.partition = userID   // keep the cache: switch and clear partitions
    /// ```
    ///
    /// Named `cache` (``CachePlugin/name``) unless told otherwise, in the call position at the
    /// department layer, so it sits outside retries and redirects: a stored response answers before
    /// either runs, and a stale-if-error fallback happens only after retries gave up. A client
    /// without this plugin has no cache link and pays nothing for it.
    /// - Parameters:
    ///   - cache: The cache (keep it to switch and clear partitions).
    ///   - name: The plugin's name (default ``CachePlugin/name``).
    ///   - scope: The requests it caches (default: all).
    ///   - placement: Where among other call plugins (default: registration order).
    /// - Returns: A plugin at the call position.
    public static func cache(
        _ cache: HTTPCache, name: String = CachePlugin.name, scope: RequestScope = .all, placement: Placement = .inOrder
    ) -> Plugin {
        Plugin(
            name: name, scope: scope, position: .call, placement: placement,
            // It judges the final answer: after retries gave up, and a validated status as a failure.
            relations: [.outside("retry"), .outside("validation")],
            interceptors: [CacheInterceptor(cache: cache)])
    }
}

/// The cache plugin's default name; `Plugin.cache(_:name:scope:placement:)` makes the plugin.
public enum CachePlugin {
    /// The plugin's default name.
    public static let name = "cache"

    /// Makes the plugin.
    /// - Parameters:
    ///   - cache: The cache (keep it to switch and clear partitions).
    ///   - name: The plugin's name (default ``name``).
    ///   - scope: The requests it caches (default: all).
    ///   - placement: Where among other call plugins (default: registration order).
    /// - Returns: A `Plugin` at the call position.
    @available(*, deprecated, renamed: "Plugin.cache(_:name:scope:placement:)")
    public static func make(
        cache: HTTPCache, name: String = CachePlugin.name, scope: RequestScope = .all,
        placement: Plugin.Placement = .inOrder
    ) -> Plugin {
        .cache(cache, name: name, scope: scope, placement: placement)
    }
}
