public import CoreMetrics
import HTTPTypes
import SwitchyardCore

/// swift-metrics under OpenTelemetry's HTTP client names, one measurement per attempt (each retry
/// and each redirect hop is an HTTP request of its own, as the convention counts them):
///
/// | Metric | swift-metrics type | Unit | Labels |
/// | --- | --- | --- | --- |
/// | `http.client.request.duration` | `Recorder` (aggregating: a histogram) | seconds | all |
/// | `http.client.active_requests` | `Meter` (up-down) | requests | method, scheme, address, port, template |
/// | `http.client.request.body.size` | `Recorder` (aggregating) | bytes | all |
/// | `http.client.response.body.size` | `Recorder` (aggregating) | bytes | all |
///
/// Labels, all from bounded sets (never a raw URL): `http.request.method`, `url.scheme`,
/// `server.address`, `server.port`, `http.response.status_code` (when a response arrived),
/// `error.type` (the `SwitchyardError.Kind` raw value, or the status code for 400
/// and more) and `url.template` (a registered template the path matches, or the
/// `RequestOptions.tags` value named by ``templateTagPrefix``; absent otherwise).
///
/// ```swift
/// var configuration = ClientConfiguration()
/// let metrics = HTTPClientMetrics()                 // the bootstrapped MetricsSystem
/// metrics.register(template: "/users/{id}")
/// configuration.plugins.append(.httpMetrics(metrics))
/// ```
///
/// An attempt's duration runs from when it enters the link (right before the concurrency limiter,
/// so a wait for a slot counts) to the end of its response body (or its failure, or the body being
/// dropped unread). The response size counts the body bytes as the chain receives them (after any
/// content decoding by the transport); the request size is the body's known length, else the bytes
/// the transport read from it.
///
/// ### Cost
///
/// Without the plugin (``SwitchyardCore/Plugin/httpMetrics(_:)``) the link is not in the chain. On,
/// each attempt looks up its metric objects in a cache keyed by the label values (created once per
/// label set, not per request) and taps the response body to count its bytes.
public final class HTTPClientMetrics: Sendable {
    /// `http.client.request.duration`.
    public static let durationLabel = "http.client.request.duration"
    /// `http.client.active_requests`.
    public static let activeRequestsLabel = "http.client.active_requests"
    /// `http.client.request.body.size`.
    public static let requestBodySizeLabel = "http.client.request.body.size"
    /// `http.client.response.body.size`.
    public static let responseBodySizeLabel = "http.client.response.body.size"

    /// A tag prefix that names a request's template: a request tagged `template:/users/{id}` counts
    /// under `url.template` `/users/{id}` when no registered template matches (`nil`: not used).
    public let templateTagPrefix: String?

    private let factory: (any MetricsFactory)?
    private let state = Lock(State())

    /// The label values that name one set of metric objects.
    struct Key: Hashable {
        var method: HTTPRequest.Method
        var scheme: String?
        var authority: String?
        var template: String?
        var status: Int
        var errorType: String?
    }

    /// The metric objects of one finished-attempt label set.
    struct Instruments {
        let duration: Recorder
        let requestSize: Recorder
        let responseSize: Recorder
    }

    private struct State {
        var templates = EndpointTemplates()
        var hasTemplates = false
        /// Path → registered template (or none), bounded.
        var templateCache: [String: String?] = [:]
        var finished: [Key: Instruments] = [:]
        var active: [Key: Meter] = [:]
    }

    /// Creates the metrics.
    /// - Parameters:
    ///   - factory: Where metrics go; `nil` (default) uses the bootstrapped `MetricsSystem`.
    ///   - templates: Path templates such as `/users/{id}` (`{…}` matches one segment).
    ///   - templateTagPrefix: A tag prefix naming a request's template (default `template:`).
    public init(factory: (any MetricsFactory)? = nil, templates: [String] = [], templateTagPrefix: String? = "template:") {
        self.factory = factory
        self.templateTagPrefix = templateTagPrefix
        for template in templates { register(template: template) }
    }

    /// Names a path template, e.g. `/users/{id}`, for the `url.template` label.
    /// - Parameter template: The template; `{…}` matches one path segment.
    public func register(template: String) {
        state.withLock { state in
            state.templates.register(template)
            state.hasTemplates = true
            state.templateCache = [:]
        }
    }

    /// The `url.template` of a request: a registered template its path matches, else the value of
    /// its tag with ``templateTagPrefix``, else `nil`.
    func template(of head: HTTPRequest, options: RequestOptions) -> String? {
        let registered: String?? = state.withLock { state in
            guard state.hasTemplates else { return .some(nil) }
            let path = head.path ?? "/"
            if let cached = state.templateCache[path] { return cached }
            let template = state.templates.registeredTemplate(for: path)
            if state.templateCache.count >= 4_096 { state.templateCache = [:] }
            state.templateCache[path] = .some(template)
            return .some(template)
        }
        if let registered = registered ?? nil { return registered }
        guard let prefix = templateTagPrefix, !options.tags.isEmpty else { return nil }
        return options.tags.first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    /// The active-requests meter of `key` (status and error ignored), created once.
    func activeRequests(_ key: Key) -> Meter {
        var key = key
        key.status = 0
        key.errorType = nil
        if let meter = state.withLock({ $0.active[key] }) { return meter }
        let meter =
            factory.map { Meter(label: Self.activeRequestsLabel, dimensions: dimensions(key), factory: $0) }
            ?? Meter(label: Self.activeRequestsLabel, dimensions: dimensions(key))
        return state.withLock { state in
            if let existing = state.active[key] { return existing }
            state.active[key] = meter
            return meter
        }
    }

    /// The duration and size recorders of `key`, created once.
    func instruments(_ key: Key) -> Instruments {
        if let instruments = state.withLock({ $0.finished[key] }) { return instruments }
        let labels = dimensions(key)
        func recorder(_ label: String) -> Recorder {
            factory.map { Recorder(label: label, dimensions: labels, aggregate: true, factory: $0) }
                ?? Recorder(label: label, dimensions: labels, aggregate: true)
        }
        let made = Instruments(
            duration: recorder(Self.durationLabel), requestSize: recorder(Self.requestBodySizeLabel),
            responseSize: recorder(Self.responseBodySizeLabel))
        return state.withLock { state in
            if let existing = state.finished[key] { return existing }
            state.finished[key] = made
            return made
        }
    }

    /// The label pairs of `key` (built once per label set).
    private func dimensions(_ key: Key) -> [(String, String)] {
        let head = HTTPRequest(method: key.method, scheme: key.scheme, authority: key.authority, path: "/")
        let semantics = HTTPClientSemantics(head)
        var labels: [(String, String)] = [
            ("http.request.method", semantics.method), ("url.scheme", semantics.scheme),
            ("server.address", semantics.serverAddress)
        ]
        if let port = semantics.serverPort { labels.append(("server.port", String(port))) }
        if key.status != 0 { labels.append(("http.response.status_code", HTTPClientSemantics.statusText(key.status))) }
        if let errorType = key.errorType { labels.append(("error.type", errorType)) }
        if let template = key.template { labels.append(("url.template", template)) }
        return labels
    }
}
