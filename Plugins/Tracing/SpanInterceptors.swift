import HTTPTypes
import SwitchyardCore
import SwitchyardObservability
import Synchronization
import Tracing

/// The call's span and its attempt count, kept in the exchange context for the attempt links.
final class CallTrace: Sendable {
    let context: ServiceContext
    /// Attempts started so far (each retry and redirect hop is one).
    let attempts = Atomic<Int>(0)

    init(context: ServiceContext) { self.context = context }
}

/// Where ``CallTrace`` is kept.
enum CallTraceKey: ExchangeContextKey {
    typealias Value = CallTrace
}

/// Starts the call span, runs the rest of the chain in its context, and ends it with the body.
struct CallSpanInterceptor: Interceptor {
    let source: TracerSource
    let redaction: QueryRedaction
    let isClient: Bool

    nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        guard let tracer = source.current else { return try await next(request) }
        let span = tracer.startSpan(
            SpanFinisher.name(of: request.head), context: ServiceContext.current ?? .topLevel,
            ofKind: isClient ? .client : .internal)
        SpanFinisher.describe(request.head, on: span, redaction: redaction)
        context[CallTraceKey.self] = CallTrace(context: span.context)
        let finisher = SpanFinisher(span: span, exchange: context)
        return try await finisher.run { try await ServiceContext.withValue(span.context) { try await next(request) } }
    }
}

/// Starts an attempt span under the call span, injects its context into the request, and ends it
/// with the body.
struct AttemptSpanInterceptor: Interceptor {
    let source: TracerSource
    let redaction: QueryRedaction

    nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        guard let tracer = source.current else { return try await next(request) }
        let call = context[CallTraceKey.self]
        let resends = call.map { $0.attempts.wrappingAdd(1, ordering: .relaxed).oldValue } ?? (context.attempt - 1)
        let span = tracer.startSpan(
            SpanFinisher.name(of: request.head), context: call?.context ?? ServiceContext.current ?? .topLevel,
            ofKind: .client)
        SpanFinisher.describe(request.head, on: span, redaction: redaction)
        if resends > 0 { span.attributes["http.request.resend_count"] = resends }
        var request = request
        var fields = request.head.headerFields
        source.inject(span.context, into: &fields, tracer: tracer)
        request.head.headerFields = fields
        let finisher = SpanFinisher(span: span, exchange: context)
        return try await finisher.run { try await next(request) }
    }
}

/// Ends one span exactly once: when the response body ends, fails or is dropped, or when the
/// operation throws; sets its outcome attributes and status first.
final class SpanFinisher: BodyTap {
    private let span: any Span
    private let exchange: ExchangeContext
    private let done = Atomic<Bool>(false)

    init(span: any Span, exchange: ExchangeContext) {
        self.span = span
        self.exchange = exchange
    }

    deinit {
        // The body was dropped unread or partly read: the caller is done with the response.
        end(error: nil)
    }

    /// Runs `operation`, recording its failure or tying the span's end to the response body.
    func run(_ operation: () async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await operation()
        } catch {
            let failure = SwitchyardError.wrapping(error)
            span.attributes["error.type"] = HTTPClientSemantics.errorType(of: failure)
            if let status = failure.response?.status.code { span.attributes["http.response.status_code"] = status }
            end(error: failure)
            throw error
        }
        let status = response.head.status
        let errorType = HTTPClientSemantics.errorType(of: status)
        span.updateAttributes { attributes in
            attributes["http.response.status_code"] = status.code
            if let errorType { attributes["error.type"] = errorType }
        }
        if errorType != nil { span.setStatus(SpanStatus(code: .error, message: "HTTP \(status.code)")) }
        guard let body = response.body, body.bufferedBytes == nil else {
            // No body, or one already in memory: the exchange is over now.
            end(error: nil)
            return response
        }
        response.body = body.tapped(by: self)
        return response
    }

    func received(_ chunk: ArraySlice<UInt8>) {}

    func ended() throws { end(error: nil) }

    func failed(_ error: SwitchyardError) {
        span.attributes["error.type"] = HTTPClientSemantics.errorType(of: error)
        end(error: error)
    }

    private func end(error: SwitchyardError?) {
        guard !done.exchange(true, ordering: .relaxed) else { return }
        if let version = exchange.timings.httpVersion {
            span.attributes["network.protocol.version"] = version.description
        }
        if let error {
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error, message: "\(error.kind.rawValue): \(error.message)"))
        }
        span.end()
    }

    /// The span name: the method, or `HTTP` for one outside the standard set.
    static func name(of head: HTTPRequest) -> String {
        let method = HTTPClientSemantics.method(of: head.method)
        return method == "_OTHER" ? "HTTP" : method
    }

    /// Sets the request attributes.
    static func describe(_ head: HTTPRequest, on span: any Span, redaction: QueryRedaction) {
        let semantics = HTTPClientSemantics(head)
        span.updateAttributes { attributes in
            attributes["http.request.method"] = semantics.method
            if semantics.method == "_OTHER" { attributes["http.request.method_original"] = head.method.rawValue }
            attributes["url.full"] = HTTPClientSemantics.fullURL(of: head, redaction: redaction)
            attributes["server.address"] = semantics.serverAddress
            if let port = semantics.serverPort { attributes["server.port"] = port }
        }
    }
}
