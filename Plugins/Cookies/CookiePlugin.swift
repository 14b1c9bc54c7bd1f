public import Switchyard

/// The cookie jar in the chain: every attempt (each retry and each redirect hop) sends the jar's
/// matching cookies and stores the cookies its response sets.
///
/// ```swift
/// let jar = CookieJar()
/// var configuration = ClientConfiguration.standard
/// configuration.plugins.append(CookiePlugin.make(jar: jar))
/// ```
///
/// It sits in the outer layer of the attempt links, so department attempt plugins (signing,
/// logging) see the `Cookie` field it adds. Requests outside `scope` neither send nor store cookies.
public enum CookiePlugin {
    /// `cookies`.
    public static let name = "cookies"

    /// Creates the plugin.
    /// - Parameters:
    ///   - jar: The jar (keep it to switch partitions and clear them).
    ///   - scope: The requests that use the jar (default: all).
    /// - Returns: The plugin: one attempt link in the outer layer.
    public static func make(jar: CookieJar, scope: RequestScope = .all) -> Plugin {
        Plugin(name: name, scope: scope, position: .attempt, layer: .outer, interceptors: [CookieInterceptor(jar: jar)])
    }
}
