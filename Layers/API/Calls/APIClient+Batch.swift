public import SwitchyardCore
public import SwitchyardTraffic

extension APIClient {
    /// Calls many endpoints of one model type concurrently, at most `maxConcurrency` at a time, and
    /// returns every value or failure in endpoint order (see `Batch`).
    ///
    /// ```swift
    /// let users = await api.values(of: ids.map(Endpoints.user), maxConcurrency: 4, mode: .failFast)
    /// ```
    ///
    /// Cancelling the awaiting task cancels every call still running; with `.failFast` the first
    /// failure cancels the rest.
    /// - Parameters:
    ///   - endpoints: The endpoints.
    ///   - maxConcurrency: Calls in flight at once (at least 1).
    ///   - mode: Collect every outcome, or cancel the rest at the first failure.
    /// - Returns: One outcome per endpoint, in order.
    public func values<Value: Sendable>(
        of endpoints: [Endpoint<Value>], maxConcurrency: Int = .max, mode: BatchMode = .collectAll
    ) async -> [Result<Value, SwitchyardError>] {
        await Batch.run(endpoints, maxConcurrency: maxConcurrency, mode: mode) { (endpoint) async throws(SwitchyardError) in
            try await value(endpoint)
        }
    }
}
