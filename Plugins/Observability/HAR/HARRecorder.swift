public import Foundation
import HTTPTypes
public import SwitchyardCore

/// Records exchanges as an HTTP Archive (HAR 1.2), which any browser's network panel or HAR viewer
/// opens: one entry per attempt (each retry and redirect hop), with its phase timings.
///
/// ```swift
/// let har = HARRecorder()
/// var configuration = ClientConfiguration()
/// configuration.attemptInterceptors = [har.interceptor]
/// let client = try Client(transport: CurlTransport(), configuration: configuration)
/// _ = try await client.send(try Request(url: "https://example.com/"))
/// try har.write(to: URL(fileURLWithPath: "exchanges.har"))
/// ```
///
/// An entry is completed when the response body ends, fails or is dropped, so streamed bodies are
/// never read by the recorder (their size is counted as they pass). `Authorization`, `Cookie`,
/// `Set-Cookie` and `Proxy-Authorization` values are written as `<redacted>`, and so are the values
/// of credential query parameters (``LoggingConfiguration/defaultRedactedQueryParameters``) in each
/// URL, query string, `Location` and redirect URL; bodies are not stored.
public final class HARRecorder: Sendable {
    private let entries = Lock<[HAREntry]>([])
    private let redactedHeaders: Set<String>
    private let queryRedaction: QueryRedaction

    /// Creates an empty recorder.
    /// - Parameters:
    ///   - redactedHeaders: Header names (any case) whose values are not written.
    ///   - redactedQueryParameters: Query parameter names (any case) whose values are not written;
    ///     pass `[]` to record URLs as they are.
    public init(
        redactedHeaders: Set<String> = LoggingConfiguration.defaultRedactedHeaders,
        redactedQueryParameters: Set<String> = LoggingConfiguration.defaultRedactedQueryParameters
    ) {
        self.redactedHeaders = Set(redactedHeaders.map { $0.lowercased() })
        self.queryRedaction = QueryRedaction(parameterNames: redactedQueryParameters)
    }

    /// The interceptor that feeds this recorder; put it at the attempt position.
    public var interceptor: any Interceptor { HARInterceptor(recorder: self) }

    /// The entries recorded so far, as HAR JSON.
    /// - Returns: `{"log": {"version": "1.2", "creator": …, "entries": […]}}`.
    public func json() -> String {
        let log: [String: Any] = [
            "log": [
                "version": "1.2",
                "creator": ["name": "Switchyard", "version": "1"],
                "entries": entries.withLock { $0 }.sorted { $0.started < $1.started }
                    .map { $0.object(redacting: queryRedaction) }
            ] as [String: Any]
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: log, options: [.prettyPrinted, .sortedKeys]) else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Writes ``json()`` to `url`.
    /// - Parameter url: The file to write.
    /// - Throws: The file system's error.
    public func write(to url: URL) throws {
        try Data(json().utf8).write(to: url)
    }

    /// The number of completed entries.
    public var count: Int { entries.withLock { $0.count } }

    func add(_ entry: HAREntry) {
        entries.withLock { $0.append(entry) }
    }

    func headers(_ fields: HTTPFields) -> [[String: String]] {
        fields.map { field in
            let value = redactedHeaders.contains(field.name.canonicalName) ? QueryRedaction.mask : queryRedaction.value(of: field)
            return ["name": field.name.rawName, "value": value]
        }
    }
}

/// Records one attempt when its response is over.
struct HARInterceptor: Interceptor {
    let recorder: HARRecorder

    nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        let started = Date()
        var entry = HAREntry(
            started: started, request: request.head, requestHeaders: recorder.headers(request.head.headerFields),
            requestBodySize: request.body.flatMap { if case .known(let n) = $0.length { Int(n) } else { nil } } ?? 0)
        var response: Response
        do {
            response = try await next(request)
        } catch {
            entry.error = error.kind.rawValue
            entry.finish(timings: context.timings, elapsed: Date().timeIntervalSince(started))
            recorder.add(entry)
            throw error
        }
        entry.response = response.head
        entry.responseHeaders = recorder.headers(response.head.headerFields)
        let tap = HARBodyTap(entry: entry, recorder: recorder, context: context)
        if let body = response.body {
            response.body = body.tapped(by: tap)
        } else {
            tap.finish()
        }
        return response
    }
}

/// Counts the response body and completes the entry when it is over.
final class HARBodyTap: BodyTap {
    private let state: Lock<(entry: HAREntry, done: Bool)>
    private let recorder: HARRecorder
    private let context: ExchangeContext

    init(entry: HAREntry, recorder: HARRecorder, context: ExchangeContext) {
        self.state = Lock((entry, false))
        self.recorder = recorder
        self.context = context
    }

    deinit { finish() }

    func received(_ chunk: ArraySlice<UInt8>) {
        state.withLock { $0.entry.responseBodySize += chunk.count }
    }

    func ended() throws { finish() }

    func failed(_ error: SwitchyardError) {
        state.withLock { $0.entry.error = error.kind.rawValue }
        finish()
    }

    func finish() {
        let timings = context.timings
        let entry = state.withLock { state -> HAREntry? in
            guard !state.done else { return nil }
            state.done = true
            state.entry.finish(timings: timings, elapsed: Date().timeIntervalSince(state.entry.started))
            return state.entry
        }
        if let entry { recorder.add(entry) }
    }
}
