import HTTPTypes

/// TEMPORARY: publishes started/succeeded/failed/cancelled until the events interceptor lands.
struct LifecycleEvents: Interceptor {
    let bus: EventBus
    func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        context.eventBus = bus
        context.publish(.started, request: request)
        do {
            let response = try await next(request)
            context.publish(.succeeded(status: response.head.status.code), request: request)
            return response
        } catch {
            let wrapped = SwitchyardError.wrapping(error)
            context.publish(wrapped.kind == .cancelled ? .cancelled : .failed(wrapped), request: request)
            throw error
        }
    }
}
