public import OpenAPIRuntime
public import SwitchyardCore

/// Any swift-openapi-runtime `ClientMiddleware` as a Switchyard `Interceptor`: middleware
/// written for generated clients (authentication, logging, header injection) runs in a Switchyard
/// chain, for generated clients and for plain Switchyard requests alike.
///
/// ```swift
/// var configuration = ClientConfiguration()
/// configuration.attemptInterceptors = [OpenAPIMiddlewareInterceptor(BearerMiddleware(token: token))]
/// ```
///
/// The middleware sees the request as generated code builds it: the path relative to a base URL
/// (`scheme://authority` of the request), no scheme or authority in the head. What it passes to
/// `next` becomes the request that goes on down the chain (head, body and base URL); what it
/// returns becomes the response. Bodies stream through unbuffered both ways, and a body the
/// middleware passes on unchanged reaches the chain as the original Switchyard body.
///
/// Placed as an attempt interceptor, it runs once per attempt (each retry, each redirect hop);
/// as a call interceptor, once per call. Errors it throws are sealed by the chain like any
/// interceptor's: its own errors become `SwitchyardError.Kind.transport` naming it, and
/// `SwitchyardError`s from `next` pass through unchanged.
public struct OpenAPIMiddlewareInterceptor: Interceptor {
    /// The wrapped middleware.
    public let middleware: any ClientMiddleware
    /// The operation ID given to the middleware; `nil` gives it the request's
    /// `RequestOptions.openAPIOperationID` (set by ``SwitchyardClientTransport``), or `""` for a
    /// request that did not come from a generated client.
    public let operationID: String?

    /// Wraps a middleware.
    /// - Parameters:
    ///   - middleware: The middleware.
    ///   - operationID: A fixed operation ID to pass it, or `nil` for the request's own.
    public init(_ middleware: any ClientMiddleware, operationID: String? = nil) {
        self.middleware = middleware
        self.operationID = operationID
    }

    /// Runs the middleware, with the rest of the chain as its `next`.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The exchange context.
    ///   - next: The rest of the chain.
    /// - Returns: The response the middleware returns.
    /// - Throws: What the middleware or the rest of the chain throws.
    public nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        let operationID = self.operationID ?? request.options.openAPIOperationID ?? ""
        let (head, baseURL) = try OpenAPIRequestHead.relative(request.head)
        let originalBody = request.body
        let bridgedBody = originalBody.map(OpenAPIBodyBridge.openAPI)
        let responses = ResponseBodies()
        let (responseHead, responseBody) = try await middleware.intercept(
            head, body: bridgedBody, baseURL: baseURL, operationID: operationID
        ) { head, body, baseURL in
            var forwarded = request
            forwarded.head = try OpenAPIRequestHead.absolute(head, baseURL: baseURL)
            forwarded.body = body === bridgedBody ? originalBody : body.map(OpenAPIBodyBridge.switchyard)
            let response = try await next(forwarded)
            return (response.head, responses.bridge(response.body))
        }
        return Response(responseHead, body: responses.original(of: responseBody))
    }
}

/// Remembers the last response body handed to the middleware, so a body it returns unchanged
/// goes back up the chain as the original Switchyard body instead of being wrapped twice.
private final class ResponseBodies: Sendable {
    private let last = Lock<(bridged: OpenAPIRuntime.HTTPBody, original: SwitchyardCore.HTTPBody)?>(nil)

    /// `body` as an OpenAPI body, remembered.
    func bridge(_ body: SwitchyardCore.HTTPBody?) -> OpenAPIRuntime.HTTPBody? {
        guard let body else { return nil }
        let bridged = OpenAPIBodyBridge.openAPI(body)
        last.withLock { $0 = (bridged, body) }
        return bridged
    }

    /// The Switchyard body for what the middleware returned.
    func original(of body: OpenAPIRuntime.HTTPBody?) -> SwitchyardCore.HTTPBody? {
        guard let body else { return nil }
        if let known = last.withLock({ $0 }), known.bridged === body { return known.original }
        return OpenAPIBodyBridge.switchyard(body)
    }
}
