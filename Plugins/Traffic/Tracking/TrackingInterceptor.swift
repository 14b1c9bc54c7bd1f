import SwitchyardCore

/// Follows every call through an ``ExchangeTracker``: the outermost call link of
/// ``Plugin/tracking(_:)``. The call runs in a task the tracker can cancel (group cancellation),
/// while the caller's own cancellation still reaches it; a streamed body is read by a pump task the
/// tracker can cancel too, and the exchange is followed until the body ends or is dropped.
struct TrackingInterceptor: Interceptor {
    let tracker: ExchangeTracker

    nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        try await tracker.trackStream(context, tags: request.options.tags) { () async throws(SwitchyardError) in
            do {
                return try await next(request)
            } catch {
                throw SwitchyardError.wrapping(error)
            }
        }
    }
}

/// The tracker following an exchange and its entry there, in the exchange's context (read by the
/// links that report to it: the concurrency limiter marks the exchange queued).
enum TrackerRegistrationKey: ExchangeContextKey {
    typealias Value = TrackerRegistration
}
