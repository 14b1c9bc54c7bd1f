public import SwitchyardCore

extension Plugin {
    /// The cookie jar in the chain: every attempt (each retry and each redirect hop) sends the
    /// jar's matching cookies and stores the cookies its response sets (one interceptor).
    ///
    /// ```swift
    /// let jar = CookieJar()
    /// var configuration = ClientConfiguration()
    /// configuration.plugins.append(.cookies(jar))
    /// jar.partition = userID   // keep the jar: switch and clear partitions
    /// ```
    ///
    /// Named `cookies` (``CookiePlugin/name``), in the attempt position at the outer layer
    /// (`Plugin.Layer.outer`), so department attempt plugins (signing, logging) see the `Cookie`
    /// field it adds. Requests outside `scope` neither send nor store cookies.
    /// - Parameters:
    ///   - jar: The jar (keep it to switch partitions and clear them).
    ///   - scope: The requests that use the jar (default: all).
    /// - Returns: The plugin: one attempt link in the outer layer.
    public static func cookies(_ jar: CookieJar, scope: RequestScope = .all) -> Plugin {
        Plugin(
            name: CookiePlugin.name, scope: scope, position: .attempt, layer: .outer,
            interceptors: [CookieInterceptor(jar: jar)])
    }
}

/// The cookie plugin's name; `Plugin.cookies(_:scope:)` makes the plugin.
public enum CookiePlugin {
    /// `cookies`.
    public static let name = "cookies"

    /// Creates the plugin.
    /// - Parameters:
    ///   - jar: The jar (keep it to switch partitions and clear them).
    ///   - scope: The requests that use the jar (default: all).
    /// - Returns: The plugin: one attempt link in the outer layer.
    @available(*, deprecated, renamed: "Plugin.cookies(_:scope:)")
    public static func make(jar: CookieJar, scope: RequestScope = .all) -> Plugin {
        .cookies(jar, scope: scope)
    }
}
