public import Foundation
import HTTPTypes
public import SwitchyardCore

/// A transport that serves exchanges saved by ``RecordingTransport``, without a network.
///
/// ```swift
/// let replay = try ReplayingTransport(directory: URL(fileURLWithPath: "Fixtures/profile-screen"))
/// let client = Client(transport: replay)
/// let user = try await client.send(try Request(url: "https://api.example.com/users/42"))
/// #expect(user.head.status == .ok)
/// ```
///
/// A request matches a recorded exchange by method and path with query (`GET /users/42?fields=name`);
/// scheme, host, port, header fields and request body are not compared, so a recording made against a
/// server on one port replays against any. A query value recorded as `<redacted>` (a credential,
/// see ``RecordingTransport``) matches any value of that parameter. When several exchanges match,
/// they are served in recorded order; after the last one, ``ExhaustionPolicy/repeatLast`` (the
/// default) serves the last again, and ``ExhaustionPolicy/fail`` fails with
/// `SwitchyardError.Kind.invalidRequest`. A request that matches nothing fails with `SwitchyardError.Kind.invalidRequest` listing what is recorded.
///
/// Recorded outcomes replay faithfully: a failure before the head throws an error of the recorded kind;
/// a failure mid-body yields the recorded bytes and then throws it; an abandoned body yields the bytes
/// that were read and then throws `SwitchyardError.Kind.invalidRequest` (the rest was never recorded).
/// Redacted header values replay as `<redacted>`. Safe to use from many tasks at once.
public final class ReplayingTransport: Transport {
    /// What happens when every recorded exchange for a request has been served.
    public enum ExhaustionPolicy: Sendable, Hashable {
        /// Serve the last matching exchange again, as often as asked.
        case repeatLast
        /// Fail with `SwitchyardError.Kind.invalidRequest`.
        case fail
    }

    /// The exchanges this transport serves, in recorded order.
    public let exchanges: [RecordedExchange]
    private let byTarget: [String: [RecordedExchange]]
    /// Masks the query parameters recorded as `<redacted>`, so a request's target can match them.
    private let recordedRedaction: QueryRedaction
    private let exhaustion: ExhaustionPolicy
    private let source: String

    private struct State {
        var served: [String: Int] = [:]
        var requests: [Request] = []
    }

    private let state = Lock(State())

    /// Creates a transport serving the exchanges recorded in `directory`.
    /// - Parameters:
    ///   - directory: A directory written by ``RecordingTransport``.
    ///   - whenExhausted: What to do after the last matching exchange was served; repeats it by default.
    /// - Throws: `SwitchyardError.Kind.invalidRequest` or `SwitchyardError.Kind.decoding` when the
    ///   directory or one of its files cannot be read.
    public convenience init(directory: URL, whenExhausted: ExhaustionPolicy = .repeatLast) throws(SwitchyardError) {
        try self.init(
            exchanges: RecordedExchange.loadAll(from: directory), whenExhausted: whenExhausted,
            source: directory.path)
    }

    /// Creates a transport serving `exchanges`, e.g. built in code or loaded with ``RecordedExchange/loadAll(from:)``.
    /// - Parameters:
    ///   - exchanges: The exchanges, in the order they should be served.
    ///   - whenExhausted: What to do after the last matching exchange was served; repeats it by default.
    public convenience init(exchanges: [RecordedExchange], whenExhausted: ExhaustionPolicy = .repeatLast) {
        self.init(exchanges: exchanges, whenExhausted: whenExhausted, source: "the given exchanges")
    }

    private init(exchanges: [RecordedExchange], whenExhausted: ExhaustionPolicy, source: String) {
        self.exchanges = exchanges
        self.byTarget = Dictionary(grouping: exchanges, by: \.request.target)
        self.recordedRedaction = QueryRedaction(
            parameterNames: exchanges.flatMap { exchange in
                QueryRedaction.queryItems(of: exchange.request.path).filter { $0.value == QueryRedaction.mask }.map { String($0.name) }
            })
        self.exhaustion = whenExhausted
        self.source = source
    }

    /// Every request received, matched or not, in order.
    public var requests: [Request] { state.withLock { $0.requests } }

    /// How many requests were received.
    public var callCount: Int { state.withLock { $0.requests.count } }

    /// Serves the next recorded exchange matching the request's method and path.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The exchange context.
    /// - Returns: The recorded response.
    /// - Throws: The recorded error (same kind); `SwitchyardError.Kind.invalidRequest` when nothing
    ///   matches or the matches are used up under ``ExhaustionPolicy/fail``; `SwitchyardError.Kind.cancelled`
    ///   or `SwitchyardError.Kind.timeout` when the exchange is already cancelled or past its deadline.
    public nonisolated(nonsending) func send(_ request: Request, context: ExchangeContext) async throws -> Response {
        let exact = "\(request.head.method.rawValue) \(request.head.path ?? "/")"
        let target =
            byTarget[exact] != nil
            ? exact : "\(request.head.method.rawValue) \(recordedRedaction.redact(request.head.path ?? "/"))"
        try context.checkLiveness()
        let index = state.withLock { state in
            state.requests.append(request)
            defer { state.served[target, default: 0] += 1 }
            return state.served[target, default: 0]
        }
        guard let matches = byTarget[target], let last = matches.last else { throw unmatchedError(target) }
        if index >= matches.count, exhaustion == .fail {
            throw SwitchyardError.invalidRequest(
                "All \(matches.count) recorded exchange(s) for \(target) in"
                    + " \(source) were already served; record more, or replay with whenExhausted: .repeatLast.")
        }
        let response = try Self.response(for: index < matches.count ? matches[index] : last, request: request)
        let elapsed = context.startedAt.duration(to: .now)
        context.recordTimings {
            $0.firstByte = elapsed
            $0.total = elapsed
        }
        return response
    }

    // MARK: - Building responses

    private static func response(for exchange: RecordedExchange, request: Request) throws -> Response {
        guard let recorded = exchange.response else {
            throw exchange.error?.switchyardError
                ?? SwitchyardError.transportFailed("Exchange \(exchange.sequence) was recorded without a response.")
        }
        let head = try recorded.makeHead()
        guard let body = recorded.body, request.head.method != .head else { return Response(head) }
        let bytes = try body.decodedBytes()
        if let limit = request.options.maxResponseBytes, Int64(bytes.count) > limit {
            throw SwitchyardError.responseTooLarge(limit: limit)
        }
        switch exchange.outcome {
        case .completed:
            return Response(head, body: HTTPBody(bytes))
        case .failed:
            let error = exchange.error?.switchyardError ?? .transportFailed("The recorded body failed.")
            return Response(head, body: .endingInError(bytes, error: error))
        case .abandoned:
            let error = SwitchyardError.invalidRequest(
                "Exchange \(exchange.sequence) (\(exchange.request.target))"
                    + " was recorded while its reader stopped after \(bytes.count) bytes; the rest was never recorded.")
            return Response(head, body: .endingInError(bytes, error: error))
        }
    }

    private func unmatchedError(_ target: String) -> SwitchyardError {
        var counts: [(String, Int)] = []
        for exchange in exchanges {
            if let index = counts.firstIndex(where: { $0.0 == exchange.request.target }) {
                counts[index].1 += 1
            } else {
                counts.append((exchange.request.target, 1))
            }
        }
        let listing = counts.isEmpty ? " (nothing)" : counts.map { "\n  \($0.0) (\($0.1)×)" }.joined()
        return .invalidRequest("No recorded exchange matches \(target). Recorded in \(source):\(listing)")
    }
}
