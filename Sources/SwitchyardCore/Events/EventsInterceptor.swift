import HTTPTypes

/// Publishes an exchange's lifecycle: `started`, then `succeeded`, `failed` or `cancelled`, on the
/// exchange's ``ExchangeContext/eventBus`` (the client's), like every other link through
/// ``ExchangeContext/publish(_:request:)``. Nothing is built when nobody listens.
///
/// An assembled client with a bus has one, as the plugin named `events` in the outermost stage; it
/// runs once per call. A client made from bare interceptors adopts the bus of its first
/// `EventsInterceptor` when it is given none:
///
/// ```swift
/// let bus = EventBus()
/// let client = Client(transport: CurlTransport(), interceptors: [EventsInterceptor(bus: bus)])
/// ```
public struct EventsInterceptor: Interceptor {
    /// The bus a client made from bare interceptors adopts as its own (see the type's documentation).
    public let bus: EventBus

    /// Creates the interceptor.
    /// - Parameter bus: Where events go.
    public init(bus: EventBus) {
        self.bus = bus
    }

    /// Publishes the call's start and end around the rest of the chain.
    public nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        context.publish(.started, request: request)
        do {
            let response = try await next(request)
            Self.publishSuccess(of: response, request: request, context: context)
            return response
        } catch {
            Self.publishFailure(error, request: request, context: context)
            throw error
        }
    }

    // Out of line, so the events' temporaries are not kept in the async frame of every call.

    @inline(never)
    private static func publishSuccess(of response: Response, request: Request, context: ExchangeContext) {
        context.publish(.succeeded(status: response.head.status.code), request: request)
    }

    @inline(never)
    private static func publishFailure(_ error: SwitchyardError, request: Request, context: ExchangeContext) {
        context.publish(error.kind == .cancelled ? .cancelled : .failed(error), request: request)
    }
}
