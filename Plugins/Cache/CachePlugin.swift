public import Switchyard

/// The HTTP cache as a plugin: one ``CacheInterceptor`` at the call position, so it sits outside
/// retries and redirects (a stored response answers before either runs, and a stale-if-error
/// fallback happens only after retries gave up).
///
/// ```swift
/// let cache = HTTPCache(store: MemoryCacheStore())
/// let client = try Client(transport: CurlTransport(),
///                         configuration: ClientConfiguration(plugins: [CachePlugin.make(cache: cache)]))
/// ```
///
/// A client without this plugin has no cache link and pays nothing for it.
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
    public static func make(
        cache: HTTPCache, name: String = CachePlugin.name, scope: RequestScope = .all,
        placement: Plugin.Placement = .inOrder
    ) -> Plugin {
        Plugin(
            name: name, scope: scope, position: .call, placement: placement,
            interceptors: [CacheInterceptor(cache: cache)])
    }
}
