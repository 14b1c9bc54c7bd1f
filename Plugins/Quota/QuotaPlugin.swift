public import Switchyard

/// An example department plugin written as an app team would write one, on the same public points
/// the built-in plugins use: its own per-request option (``Switchyard/RequestOptions/quotaCost``),
/// its own error kind (``Switchyard/SwitchyardError/Kind/quotaExceeded``, with a default pop-up
/// text), and its own event (``QuotaLow``).
///
/// ```swift
/// let searches = Quota(units: 500, per: .seconds(86_400))
/// configuration.plugins.append(
///     QuotaPlugin.make(name: "search", scope: RequestScope(hosts: ["search.example.com"]), quota: searches))
/// ```
///
/// A call in scope spends its cost before it is sent; one that would overspend fails with
/// `quotaExceeded` and never reaches the transport. The call that leaves the quota at or below
/// `warnAtOrBelow` units publishes ``QuotaLow`` once.
public enum QuotaPlugin {
    /// The pop-up text of `quotaExceeded` unless the app's ``Switchyard/PopUpPolicy`` has one.
    public static let popUpText = "You have reached the limit for this feature for now. Please try again later."

    /// Creates the plugin.
    /// - Parameters:
    ///   - name: The plugin's (department's) name, also in messages and events (default `quota`).
    ///   - scope: The requests that spend from the quota (default: all).
    ///   - quota: The allowance.
    ///   - warnAtOrBelow: The level at which ``QuotaLow`` is published (default: a tenth of the units).
    /// - Returns: The plugin: one call link in the department layer.
    public static func make(name: String = "quota", scope: RequestScope = .all, quota: Quota, warnAtOrBelow: Int? = nil)
        -> Plugin
    {
        Plugin(
            name: name, scope: scope, position: .call,
            interceptors: [QuotaInterceptor(department: name, quota: quota, warnAtOrBelow: warnAtOrBelow ?? quota.units / 10)],
            popUpTexts: [.quotaExceeded: popUpText])
    }
}
