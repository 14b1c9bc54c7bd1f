public import HTTPTypes
public import SwitchyardCore

extension Plugin {
    /// A department plugin for experiments and feature flags: adds `X-Experiments` and
    /// `X-Feature-Flags` (``ExperimentsPlugin/experimentsHeader``, ``ExperimentsPlugin/flagsHeader``)
    /// to the requests in its scope, and tallies in `exposures` which variants those calls exposed
    /// and how they ended, from its own event observer.
    ///
    /// ```swift
    /// let exposures = ExperimentExposures()
    /// let experiments = Plugin.experiments(
    ///     exposures,
    ///     scope: RequestScope(hosts: ["shop.example.com"]),
    ///     assignment: { await remoteConfig.currentAssignment() },
    ///     report: { exposure in analytics.track(exposure) })
    /// let client = try Client(transport: CurlTransport(), configuration: ClientConfiguration(plugins: [experiments]))
    /// // later: exposures.snapshot()["checkout-v2=treatment"]?.failures
    /// ```
    ///
    /// Named `experiments` (``ExperimentsPlugin/name``) unless told otherwise, in the call position
    /// at the department layer: the headers are computed once per call and are the same on every
    /// retry and redirect, so one call counts as one exposure. The events come from the client's
    /// events interceptor, so the client needs an event bus (`ClientConfiguration` has one by default).
    /// - Parameters:
    ///   - exposures: Where exposures are tallied (keep it to read them; default: a new one).
    ///   - name: The plugin's name (default ``ExperimentsPlugin/name``).
    ///   - scope: The requests that carry the headers and are reported.
    ///   - assignment: The current assignment, asked once per call.
    ///   - report: Called with each finished call's exposure (on the publishing task: keep it short).
    /// - Returns: A plugin at the call position.
    public static func experiments(
        _ exposures: ExperimentExposures = ExperimentExposures(),
        name: String = ExperimentsPlugin.name,
        scope: RequestScope,
        assignment: @escaping @Sendable () async -> ExperimentAssignment,
        report: @escaping @Sendable (ExperimentExposures.Exposure) -> Void = { _ in }
    ) -> Plugin {
        let experimentsHeader = ExperimentsPlugin.experimentsHeader
        let flagsHeader = ExperimentsPlugin.flagsHeader
        let interceptor = ClosureInterceptor(name: "ExperimentHeaders") { request, context, next in
            let current = await assignment()
            var request = request
            if !current.variants.isEmpty {
                request.head.headerFields[experimentsHeader] = current.experimentsHeaderValue
            }
            if !current.flags.isEmpty { request.head.headerFields[flagsHeader] = current.flagsHeaderValue }
            exposures.attach(current, to: context.id)
            return try await next(request)
        }
        return Plugin(
            name: name, scope: scope, position: .call, interceptors: [interceptor],
            observers: [
                { event in
                    if let exposure = exposures.record(event) { report(exposure) }
                }
            ])
    }
}

/// The experiments plugin's default name and header names;
/// `Plugin.experiments(_:name:scope:assignment:report:)` makes the plugin.
public enum ExperimentsPlugin {
    /// The plugin's default name.
    public static let name = "experiments"
    /// `X-Experiments: name=variant; …`.
    public static let experimentsHeader = HTTPField.Name("X-Experiments")!
    /// `X-Feature-Flags: flag,flag`.
    public static let flagsHeader = HTTPField.Name("X-Feature-Flags")!

    /// Makes the plugin.
    /// - Parameters:
    ///   - name: The plugin's name (default ``name``).
    ///   - scope: The requests that carry the headers and are reported.
    ///   - assignment: The current assignment, asked once per call.
    ///   - exposures: Where exposures are tallied.
    ///   - report: Called with each finished call's exposure (on the publishing task: keep it short).
    /// - Returns: A `Plugin` at the call position.
    @available(
        *, deprecated,
        message: "Use Plugin.experiments(_:name:scope:assignment:report:), with the exposures as its first argument."
    )
    public static func make(
        name: String = ExperimentsPlugin.name,
        scope: RequestScope,
        assignment: @escaping @Sendable () async -> ExperimentAssignment,
        exposures: ExperimentExposures = ExperimentExposures(),
        report: @escaping @Sendable (ExperimentExposures.Exposure) -> Void = { _ in }
    ) -> Plugin {
        .experiments(exposures, name: name, scope: scope, assignment: assignment, report: report)
    }
}
