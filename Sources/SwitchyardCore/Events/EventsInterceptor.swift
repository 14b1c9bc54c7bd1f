import HTTPTypes

/// Publishes an exchange's lifecycle: `started`, then `succeeded`, `failed` (with a ``PopUp`` from
/// the ``PopUpPolicy``) or `cancelled`, on the exchange's ``ExchangeContext/eventBus`` (the client's),
/// like every other link (retry, redirects) through ``ExchangeContext/publish(_:request:popUp:)``.
/// Nothing is built when nobody listens.
///
/// The outermost link of an assembled chain (``ClientConfiguration/events``); it runs once per call.
/// A request with ``RequestOptions/isSilent`` still publishes its failure, but without a pop-up.
///
/// A client made from bare interceptors adopts the bus of its first `EventsInterceptor` when it is
/// given none:
///
/// ```swift
/// let bus = EventBus()
/// let client = Client(transport: CurlTransport(), interceptors: [EventsInterceptor(bus: bus)])
/// ```
public struct EventsInterceptor: Interceptor {
    /// The bus a client made from bare interceptors adopts as its own (see the type's documentation).
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
        context.publish(.started, request: request)
        do {
            let response = try await next(request)
            context.publish(.succeeded(status: response.head.status.code), request: request)
            return response
        } catch {
            publishFailure(error, request: request, context: context)
            throw error
        }
    }

    /// Publishes `error` as the end of the call: `cancelled`, or `failed` with a pop-up from
    /// ``popUps`` (none for a silent request), coalesced with identical recent pop-ups.
    /// - Parameters:
    ///   - error: How the call failed.
    ///   - request: The request as the call made it.
    ///   - context: The exchange's context.
    func publishFailure(_ error: SwitchyardError, request: Request, context: ExchangeContext) {
        if error.kind == .cancelled {
            context.publish(.cancelled, request: request)
        } else {
            context.publish(
                .failed(error), request: request,
                popUp: request.options.isSilent
                    ? nil : popUps.popUp(for: error, request: request).map { coalescer.coalesce($0) })
        }
    }
}
