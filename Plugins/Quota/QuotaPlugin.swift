public import SwitchyardCore

extension Plugin {
    /// A department plugin that spends each call's cost (``SwitchyardCore/RequestOptions/quotaCost``,
    /// default 1) from `quota` before it is sent. An example written as an app team would write
    /// one, on the same public points the built-in plugins use: its own per-request option, its own
    /// error kind (``SwitchyardCore/SwitchyardError/Kind/quotaExceeded``, with a suggested pop-up text,
    /// ``QuotaPlugin/popUpText``, for the app's pop-up policy), and its own event (``QuotaLow``).
    ///
    /// ```swift
    /// let searches = Quota(units: 500, per: .seconds(86_400))
    /// configuration.plugins.append(.quota(searches, name: "search", scope: RequestScope(hosts: ["search.example.com"])))
    /// ```
    ///
    /// Named `quota` unless told otherwise (the name is also the department in messages and
    /// events), in the call position at the department layer: a call spends once, however many
    /// attempts it takes. A call in scope that would overspend fails with `quotaExceeded` and never
    /// reaches the transport. The call that leaves the quota at or below `warnAtOrBelow` units
    /// publishes ``QuotaLow`` once.
    /// - Parameters:
    ///   - quota: The allowance (keep it to read what is left; share it to spend from it together).
    ///   - name: The plugin's (department's) name, also in messages and events (default `quota`).
    ///   - scope: The requests that spend from the quota (default: all).
    ///   - warnAtOrBelow: The level at which ``QuotaLow`` is published (default: a tenth of the units).
    /// - Returns: The plugin: one call link in the department layer.
    public static func quota(
        _ quota: Quota, name: String = "quota", scope: RequestScope = .all, warnAtOrBelow: Int? = nil
    ) -> Plugin {
        Plugin(
            name: name, scope: scope, position: .call,
            interceptors: [QuotaInterceptor(department: name, quota: quota, warnAtOrBelow: warnAtOrBelow ?? quota.units / 10)])
    }
}

/// The quota plugin's default pop-up text; `Plugin.quota(_:name:scope:warnAtOrBelow:)` makes the
/// plugin.
public enum QuotaPlugin {
    /// A pop-up text for `quotaExceeded`, for the app's pop-up policy
    /// (`configuration.popUps?.defaults.kinds[.quotaExceeded] = QuotaPlugin.popUpText`).
    public static let popUpText = "You have reached the limit for this feature for now. Please try again later."

    /// Creates the plugin.
    /// - Parameters:
    ///   - name: The plugin's (department's) name, also in messages and events (default `quota`).
    ///   - scope: The requests that spend from the quota (default: all).
    ///   - quota: The allowance.
    ///   - warnAtOrBelow: The level at which ``QuotaLow`` is published (default: a tenth of the units).
    /// - Returns: The plugin: one call link in the department layer.
    @available(
        *, deprecated, message: "Use Plugin.quota(_:name:scope:warnAtOrBelow:), with the quota as its first argument."
    )
    public static func make(name: String = "quota", scope: RequestScope = .all, quota: Quota, warnAtOrBelow: Int? = nil)
        -> Plugin
    {
        .quota(quota, name: name, scope: scope, warnAtOrBelow: warnAtOrBelow)
    }
}
