import HTTPTypes

/// Publishes an exchange's lifecycle on an ``EventBus``: `started`, then `succeeded`, `failed` (with
/// a ``PopUp`` from the ``PopUpPolicy``) or `cancelled`. Inner links (retry, redirects) publish on the
/// same bus through ``ExchangeContext/publish(_:request:popUp:)``.
///
/// The outermost link of an assembled chain (``ClientConfiguration/events``); it runs once per call.
/// A request with ``RequestOptions/isSilent`` still publishes its failure, but without a pop-up.
///
/// ```swift
/// let bus = EventBus()
/// let client = Client(transport: CurlTransport(), interceptors: [EventsInterceptor(bus: bus)])
/// ```
public struct EventsInterceptor: Interceptor {
    /// Where events go.
    public let bus: EventBus
    /// How failures become pop-ups.
    public let popUps: PopUpPolicy
    private let coalescer: PopUpCoalescer

    /// Creates the interceptor.
    /// - Parameters:
    ///   - bus: Where events go.
    ///   - popUps: How failures become pop-ups, and the coalescing window.
    public init(bus: EventBus, popUps: PopUpPolicy = PopUpPolicy()) {
        self.bus = bus
        self.popUps = popUps
        self.coalescer = PopUpCoalescer(window: popUps.coalescingWindow)
    }

    /// Publishes the call's start and end around the rest of the chain.
    public func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        context.eventBus = bus
        context.publish(.started, request: request)
        do {
            let response = try await next(request)
            context.publish(.succeeded(status: response.head.status.code), request: request)
            return response
        } catch {
            let failure = SwitchyardError.wrapping(error)
            if failure.kind == .cancelled {
                context.publish(.cancelled, request: request)
            } else {
                let popUp = request.options.isSilent
                    ? nil : popUps.popUp(for: failure, request: request).map { coalescer.coalesce($0) }
                context.publish(.failed(failure), request: request, popUp: popUp)
            }
            throw error
        }
    }
}
