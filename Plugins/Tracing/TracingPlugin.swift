import HTTPTypes
public import SwitchyardCore
public import Tracing

extension Plugin {
    /// Distributed tracing through swift-distributed-tracing: a span per call and a child span per
    /// attempt (each retry and each redirect hop), with OpenTelemetry's HTTP client semantic-convention
    /// attributes, and the W3C trace context (`traceparent`, as the bootstrapped instrument writes it)
    /// injected into every attempt's request.
    ///
    /// ```swift
    /// InstrumentationSystem.bootstrap(myOTelTracer)          // once, at startup
    /// let client = try Client(transport: CurlTransport(), configuration: ClientConfiguration(plugins: [.tracing()]))
    /// try await withSpan("checkout") { _ in try await client.send(request) }   // the call's parent
    /// ```
    ///
    /// One plugin with two links: the returned plugin, named `name` (default `tracing`,
    /// ``TracingPlugin/name``), starts the call spans in the call position at the department layer;
    /// its companion (`Plugin.companions`), named `name + ".attempt"`, starts the attempt spans and
    /// injects the trace context in the attempt position at the department layer. Registering the
    /// plugin registers both; unregistering `name` removes both.
    ///
    /// ### Spans
    ///
    /// - The **call span** (`callSpanKind`, `.client` by default) is a child of
    ///   `ServiceContext.current`; it covers the whole call: retries, redirects, back-off waits.
    /// - Each **attempt span** (`.client`) is a child of the call span and is the context injected into
    ///   that attempt's request, so the server's span becomes its child.
    /// - Both are named after the method (`GET`; `HTTP` for a method outside the standard set) and carry
    ///   `http.request.method`, `url.full` (credential query values masked, no user information: the
    ///   `QueryRedaction` given), `server.address`, `server.port`, and when known
    ///   `http.response.status_code`, `network.protocol.version` and `error.type` (the
    ///   `SwitchyardError.Kind` raw value, or the status code for 400 and more). Attempt spans after
    ///   the first carry `http.request.resend_count`.
    /// - A span ends when the response body ends, fails or is dropped unread, or when the call or
    ///   attempt throws: a streamed download is covered to its last byte. A failure (an error, or a
    ///   status of 400 or more) sets the span status to error; a thrown error is also recorded.
    ///
    /// ### Cost
    ///
    /// Without a tracer (`tracer` `nil` and no tracer bootstrapped: `NoOpTracer`) each link checks the
    /// tracer's type and passes the request on. With one, each call and attempt starts a span, builds
    /// `url.full` once and taps the response body.
    /// - Parameters:
    ///   - tracer: The tracer (and instrument, for injection); `nil` (default) uses the bootstrapped
    ///     `InstrumentationSystem.tracer` and `InstrumentationSystem.instrument`, read per call, so
    ///     bootstrapping later still takes effect.
    ///   - scope: The requests traced (default: all).
    ///   - redaction: Which query parameters `url.full` masks (default: `QueryRedaction.standard`).
    ///   - callSpanKind: The kind of the call span: `.client` (default) or `.internal` (OpenTelemetry
    ///     backends that expect one client span per physical request).
    ///   - name: The call plugin's name; its attempt companion is `name + ".attempt"`.
    /// - Returns: The call plugin, with the attempt plugin as its companion.
    public static func tracing(
        tracer: (any Tracer)? = nil, scope: RequestScope = .all, redaction: QueryRedaction = .standard,
        callSpanKind: SpanKind = .client, name: String = TracingPlugin.name
    ) -> Plugin {
        let links = TracingLinks(tracer: tracer, scope: scope, redaction: redaction, callSpanKind: callSpanKind, name: name)
        var call = links.call
        call.companions = [links.attempt]
        return call
    }
}

/// The two plugins of distributed tracing, for code that registers them separately; new code
/// registers `Plugin.tracing(tracer:scope:redaction:callSpanKind:name:)`, one plugin with both links.
public struct TracingPlugin: Sendable {
    /// The plugins' default name; the attempt plugin adds `.attempt`.
    public static let name = "tracing"

    /// The tracer given at creation, or `nil` to use `InstrumentationSystem.tracer` (read per call,
    /// so bootstrapping later still takes effect).
    public let tracer: (any Tracer)?
    /// The requests traced.
    public let scope: RequestScope
    /// The call and attempt plugins: register both (``plugins``).
    public let callPlugin: Plugin
    /// The attempt plugin, which starts the attempt spans and injects the trace context.
    public let attemptPlugin: Plugin

    /// Both plugins, for `ClientConfiguration.plugins`.
    @available(
        *, deprecated,
        message: "Register Plugin.tracing(tracer:scope:redaction:callSpanKind:name:): one plugin with both links."
    )
    public var plugins: [Plugin] { [callPlugin, attemptPlugin] }

    /// The kind of the call span.
    public var callSpanKind: SpanKind { callIsClient ? .client : .internal }
    private let callIsClient: Bool

    /// Creates the plugins.
    /// - Parameters:
    ///   - tracer: The tracer (and instrument, for injection); `nil` (default) uses the bootstrapped
    ///     `InstrumentationSystem.tracer` and `InstrumentationSystem.instrument`.
    ///   - scope: The requests traced (default: all).
    ///   - redaction: Which query parameters `url.full` masks (default: `QueryRedaction.standard`).
    ///   - callSpanKind: The kind of the call span: `.client` (default) or `.internal` (OpenTelemetry
    ///     backends that expect one client span per physical request).
    ///   - name: The call plugin's name; the attempt plugin is `name + ".attempt"`.
    @available(
        *, deprecated,
        message: "Register Plugin.tracing(tracer:scope:redaction:callSpanKind:name:): one plugin with both links."
    )
    public init(
        tracer: (any Tracer)? = nil, scope: RequestScope = .all, redaction: QueryRedaction = .standard,
        callSpanKind: SpanKind = .client, name: String = TracingPlugin.name
    ) {
        let links = TracingLinks(tracer: tracer, scope: scope, redaction: redaction, callSpanKind: callSpanKind, name: name)
        self.tracer = tracer
        self.scope = scope
        self.callIsClient = links.callIsClient
        callPlugin = links.call
        attemptPlugin = links.attempt
    }
}

/// The call and attempt plugins of tracing.
struct TracingLinks {
    let call: Plugin
    let attempt: Plugin
    let callIsClient: Bool

    init(tracer: (any Tracer)?, scope: RequestScope, redaction: QueryRedaction, callSpanKind: SpanKind, name: String) {
        switch callSpanKind {
        case .internal: callIsClient = false
        default: callIsClient = true
        }
        let source = TracerSource(tracer: tracer)
        call = Plugin(
            name: name, scope: scope, position: .call,
            interceptors: [CallSpanInterceptor(source: source, redaction: redaction, isClient: callIsClient)])
        attempt = Plugin(
            name: name + ".attempt", scope: scope, position: .attempt,
            interceptors: [AttemptSpanInterceptor(source: source, redaction: redaction)])
    }
}

/// Where the plugin's links get their tracer and instrument.
struct TracerSource: Sendable {
    let tracer: (any Tracer)?

    /// The tracer to use now, or `nil` when tracing is off (no tracer, or the no-op one).
    var current: (any Tracer)? {
        let tracer = tracer ?? InstrumentationSystem.tracer
        return tracer is NoOpTracer ? nil : tracer
    }

    /// Writes `context` into `fields` through the instrument's injector.
    func inject(_ context: ServiceContext, into fields: inout HTTPFields, tracer: any Tracer) {
        if self.tracer != nil {
            tracer.inject(context, into: &fields, using: HTTPFieldsInjector())
        } else {
            InstrumentationSystem.instrument.inject(context, into: &fields, using: HTTPFieldsInjector())
        }
    }
}
